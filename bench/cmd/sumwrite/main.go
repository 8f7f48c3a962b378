// Command sumwrite times the index summary's writer (bodyindex.WriteSummary)
// alone, over an index that a scale run left (bench/cmd/scale):
//
//	go run ./bench/cmd/sumwrite -content /work/scale-summary/1gb/ws/work/store/content -index scale -mode fresh
//	go run ./bench/cmd/sumwrite -content … -index scale -mode reuse
//
// fresh removes the summary and writes it from scratch; reuse makes the
// summary stale without changing a part (it sets the time of the index
// folder back by a minute) and writes it again, so that a writer that
// keeps the columns of the summary before copies every part's column.
// With -old, reuse first puts that file in place of the summary (a copy
// of the summary taken before a scale run's "1 % changed" phase times the
// write of that phase).
// Each mode runs in its own process, so that the peak RSS it prints is the
// writer's.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/summary"
)

func main() {
	contentRoot := flag.String("content", "", "content root of the workspace (work/store/content)")
	index := flag.String("index", "scale", "index name")
	mode := flag.String("mode", "fresh", "fresh or reuse")
	old := flag.String("old", "", "with -mode reuse: a summary to put in place first")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the write to this file")
	flag.Parse()
	path := summary.Path(*contentRoot, *index)
	switch *mode {
	case "fresh":
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			fail(err)
		}
	case "reuse":
		if *old != "" {
			if err := copyFile(path, *old); err != nil {
				fail(err)
			}
			break
		}
		if _, err := os.Stat(path); err != nil {
			fail(fmt.Errorf("reuse needs a summary: %w", err))
		}
		dir := filepath.Join(*contentRoot, *index)
		st, err := os.Stat(dir)
		if err != nil {
			fail(err)
		}
		back := st.ModTime().Add(-time.Minute)
		if err := os.Chtimes(dir, back, back); err != nil {
			fail(err)
		}
	default:
		fail(fmt.Errorf("mode %q: fresh or reuse", *mode))
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fail(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	cpu0 := cpuTime()
	start := time.Now()
	if err := summary.Write(*contentRoot, *index); err != nil {
		fail(err)
	}
	wall, cpu := time.Since(start), cpuTime()-cpu0
	st, err := os.Stat(path)
	if err != nil {
		fail(err)
	}
	fmt.Printf("%s: summary %.1f MB, wall %.2f s, CPU %.2f s, peak RSS %.0f MB\n",
		*mode, float64(st.Size())/1e6, wall.Seconds(), cpu.Seconds(), maxRSS())
}

// copyFile copies src to dst through a small buffer, so that the copy
// does not count in the peak RSS of the write.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sumwrite:", err)
	os.Exit(1)
}
