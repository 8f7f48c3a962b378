// Package ingest measures end-to-end ingest throughput per format: generated files,
// a real `fumibako index` run (worker processes, journal, ingest list,
// publishing), at 1 worker and at the number of CPUs.
//
//	go test ./bench/ingest -bench . -benchtime 1x
package ingest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/testcorpus"
)

func build(b *testing.B) string {
	b.Helper()
	exe := filepath.Join(b.TempDir(), "fumibako")
	out, err := testcorpus.GoBuild("build", "-o", exe, "../../cmd/fumibako")
	if err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return exe
}

// corpus writes n files of one kind (text, xlsx, docx, pptx, pdf) or the
// generator's mix of all of them (kind "mixed"), and returns their bytes.
func corpus(b *testing.B, dir string, n int, kind string) int64 {
	b.Helper()
	if kind == "mixed" {
		if _, err := testcorpus.Generate(dir, n, 1); err != nil {
			b.Fatal(err)
		}
		return size(dir)
	}
	for i := 0; i < n; i++ {
		ext := kind
		if kind == "text" {
			ext = "txt"
		}
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("f%05d.%s", i, ext))
		text := fmt.Sprintf("見積書 %d 東京都千代田区 請求 token%05d", i, i)
		var err error
		switch kind {
		case "text":
			err = testcorpus.WriteText(p, text+"\n二行目の本文です。\n", "utf-8")
		case "xlsx":
			rows := [][]string{{"品名", "数量", "金額"}}
			for r := 0; r < 20; r++ {
				rows = append(rows, []string{fmt.Sprintf("%s 行%d", text, r), fmt.Sprint(r), fmt.Sprint(r * 1200)})
			}
			err = testcorpus.WriteXlsx(p, map[string][][]string{"見積": rows})
		case "docx":
			err = testcorpus.WriteDocx(p, []string{"報告書", text, "以上です。"})
		case "pptx":
			err = testcorpus.WritePptx(p, [][]string{{"提案", text}, {"まとめ"}})
		case "pdf":
			err = writePDF(p)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return size(dir)
}

// pdfFixture is a three-page Japanese PDF written by LibreOffice, with a
// comment and a title (no Go writer here makes CID-font PDFs).
var pdfFixture = filepath.Join("..", "..", "internal", "extract", "pdf", "testdata", "lo-horizontal.pdf")

func writePDF(p string) error {
	b, err := os.ReadFile(pdfFixture)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

func size(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}

func BenchmarkIngest(b *testing.B) {
	exe := build(b)
	const n = 1000
	for _, kind := range []string{"text", "xlsx", "docx", "pptx", "pdf", "mixed"} {
		for _, workers := range []int{1, runtime.NumCPU()} {
			b.Run(fmt.Sprintf("%s/workers=%d", kind, workers), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					base := b.TempDir()
					src, ws := filepath.Join(base, "src"), filepath.Join(base, "ws")
					bytes := corpus(b, src, n, kind)
					if out, err := exec.Command(exe, "--workspace", ws, "folder", "add", src).CombinedOutput(); err != nil {
						b.Fatalf("folder add: %v\n%s", err, out)
					}
					b.StartTimer()
					start := time.Now()
					cmd := exec.Command(exe, "--workspace", ws, "index", "--plain", "--workers", fmt.Sprint(workers))
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("index: %v\n%s", err, out)
					}
					el := time.Since(start).Seconds()
					b.ReportMetric(float64(n)/el, "files/s")
					b.ReportMetric(float64(bytes)/el/1e6, "MB/s")
				}
			})
		}
	}
}
