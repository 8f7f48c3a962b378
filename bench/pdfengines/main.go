// Command pdfbench compares PDF text engines: time to start, pages per second, peak RSS, text.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	lpdf "github.com/ledongthuc/pdf"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

func hwm() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM") {
			return strings.Join(strings.Fields(l)[1:], " ")
		}
	}
	return "?"
}

func main() {
	engine := os.Args[1]
	files := os.Args[2:]
	t0 := time.Now()
	var pages func(string) (int, []string, error)
	switch engine {
	case "pdfium":
		cc, _ := wazero.NewCompilationCacheWithDir(os.Getenv("PDFBENCH_CACHE"))
		rc := wazero.NewRuntimeConfig().WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).WithCompilationCache(cc)
		pool, err := webassembly.Init(webassembly.Config{MinIdle: 1, MaxIdle: 1, MaxTotal: 1, RuntimeConfig: rc})
		if err != nil {
			panic(err)
		}
		inst, err := pool.GetInstance(time.Minute)
		if err != nil {
			panic(err)
		}
		pages = func(f string) (int, []string, error) {
			b, _ := os.ReadFile(f)
			doc, err := inst.OpenDocument(&requests.OpenDocument{File: &b})
			if err != nil {
				return 0, nil, err
			}
			defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
			n, _ := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
			var out []string
			for i := 0; i < n.PageCount; i++ {
				t, err := inst.GetPageText(&requests.GetPageText{Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc.Document, Index: i}}})
				if err != nil {
					return 0, nil, err
				}
				out = append(out, t.Text)
			}
			return n.PageCount, out, nil
		}
	case "ledongthuc":
		pages = func(f string) (int, []string, error) {
			fh, r, err := lpdf.Open(f)
			if err != nil {
				return 0, nil, err
			}
			defer fh.Close()
			var out []string
			for i := 1; i <= r.NumPage(); i++ {
				p := r.Page(i)
				t, err := p.GetPlainText(nil)
				if err != nil {
					return 0, nil, err
				}
				out = append(out, t)
			}
			return r.NumPage(), out, nil
		}
	case "pdftotext":
		pages = func(f string) (int, []string, error) {
			out, err := exec.Command("pdftotext", "-enc", "UTF-8", f, "-").Output()
			if err != nil {
				return 0, nil, err
			}
			ps := strings.Split(strings.TrimSuffix(string(out), "\f"), "\f")
			return len(ps), ps, nil
		}
	}
	start := time.Since(t0)
	fmt.Printf("engine %s start %v\n", engine, start.Round(time.Millisecond))
	for _, f := range files {
		t1 := time.Now()
		n, ps, err := pages(f)
		d := time.Since(t1)
		if err != nil {
			fmt.Printf("%s: error %v\n", f, err)
			continue
		}
		fmt.Printf("%s: %d pages in %v (%.0f pages/s)\n", f, n, d.Round(time.Millisecond), float64(n)/d.Seconds())
		if n <= 5 {
			for i, p := range ps {
				fmt.Printf("  [%d] %q\n", i+1, bytes.TrimSpace([]byte(p)))
			}
		}
	}
	fmt.Printf("peak RSS %s\n", hwm())
}
