// Package ingest measures end-to-end ingest throughput: generated files,
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
	out, err := exec.Command("go", "build", "-o", exe, "../../cmd/fumibako").CombinedOutput()
	if err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return exe
}

// corpus writes n files: text only (kind "text") or the generator's mix of
// text and OOXML files (kind "mixed").
func corpus(b *testing.B, dir string, n int, kind string) {
	b.Helper()
	if kind == "mixed" {
		if _, err := testcorpus.Generate(dir, n, 1); err != nil {
			b.Fatal(err)
		}
		return
	}
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("f%05d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		text := fmt.Sprintf("見積書 %d 東京都千代田区 請求 token%05d\n二行目の本文です。\n", i, i)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIngest(b *testing.B) {
	exe := build(b)
	const n = 1000
	for _, kind := range []string{"text", "mixed"} {
		for _, workers := range []int{1, runtime.NumCPU()} {
			b.Run(fmt.Sprintf("%s/workers=%d", kind, workers), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					base := b.TempDir()
					src, ws := filepath.Join(base, "src"), filepath.Join(base, "ws")
					corpus(b, src, n, kind)
					if out, err := exec.Command(exe, "--workspace", ws, "folder", "add", src).CombinedOutput(); err != nil {
						b.Fatalf("folder add: %v\n%s", err, out)
					}
					b.StartTimer()
					start := time.Now()
					cmd := exec.Command(exe, "--workspace", ws, "index", "--plain", "--workers", fmt.Sprint(workers))
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("index: %v\n%s", err, out)
					}
					b.ReportMetric(float64(n)/time.Since(start).Seconds(), "files/s")
				}
			})
		}
	}
}
