// Package legacy measures legacy ingest in files/s for Excel 5.0/95 and
// Word 6.0/95 files, in one run:
//
//   - native: extract.Extract, the route a worker takes (the native reader,
//     LibreOffice only when it fails);
//   - LibreOffice cold: the fallback forced (libreoffice.ReadLegacyWith
//     without native readers), one soffice per file, its profile kept
//     between files as the worker keeps it;
//   - LibreOffice warm: the same with libreoffice.KeepWarm, one LibreOffice
//     kept running (the first file, which starts it, is shown apart).
//
// Each row gives the mean and the median seconds per file, files/s from the
// mean, and the ratio to the cold fallback of the same run. The files are the
// Excel 95 and Word 95 files of ../shared/corpus (the benchmark skips
// without it); each route converts them round-robin, the scratch folder
// emptied between files but for LibreOffice's profile, as the worker does.
// Nothing is asserted but that every file extracts.
//
//	go test ./bench/legacy -bench . -benchtime 1x
package legacy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/libreoffice"
)

var corpus = filepath.Join("..", "..", "..", "shared", "corpus")

// families are the formats measured, with their files in the corpus.
var families = []struct {
	name, ext string
	files     []string
}{
	{"Excel 95", ".xls", []string{"tika/testEXCEL_95.xls", "tika/testEXCEL_5.xls", "calamine/biff5_write.xls",
		"calamine/biff5-rich-text-string.xls", "calamine/misc_biff5_parsing.xls", "calamine/issue_643_biff5_formula.xls"}},
	{"Word 95", ".doc", []string{"tika/testWORD6.doc"}},
}

// route is one way of reading a legacy file.
type route struct {
	name, short string
	read        func(ctx context.Context, path string, opt extract.Options) error
	n           int // conversions per file
}

// row is one measured route.
type row struct {
	family, route string
	files, convs  int
	secs, median  float64
	note          string
}

func (r row) perFile() float64 { return r.secs / float64(r.convs) }

func BenchmarkLegacy(b *testing.B) {
	if _, err := libreoffice.Find(); err != nil {
		b.Skipf("LibreOffice not installed: %v", err)
	}
	if _, err := os.Stat(corpus); err != nil {
		b.Skipf("corpus not found at %s: %v", corpus, err)
	}
	ctx := context.Background()
	var rows []row
	for _, fam := range families {
		var files []string
		for _, f := range fam.files {
			p := filepath.Join(corpus, f)
			if _, err := os.Stat(p); err == nil {
				files = append(files, p)
			}
		}
		if len(files) == 0 {
			b.Logf("%s: no files in the corpus", fam.name)
			continue
		}
		native := extract.NativeReaders()[fam.ext]
		nativeOK := 0
		for _, f := range files {
			if native != nil {
				if _, err := native(ctx, f, extract.Options{Scratch: b.TempDir()}); err == nil {
					nativeOK++
				}
			}
		}
		// One scratch folder, its profile made before any timing.
		scratch := b.TempDir()
		if _, err := libreoffice.ReadLegacyWith(ctx, files[0], extract.Options{Scratch: scratch}, nil); err != nil {
			b.Fatalf("%s: %v", files[0], err)
		}
		empty(scratch)
		forced := func(ctx context.Context, path string, opt extract.Options) error {
			_, err := libreoffice.ReadLegacyWith(ctx, path, opt, nil)
			return err
		}
		routes := []route{
			{"native (extract.Extract)", "native", func(ctx context.Context, path string, opt extract.Options) error {
				_, err := extract.Extract(ctx, path, filepath.Base(path), opt)
				return err
			}, 20},
			{"LibreOffice cold", "cold", forced, 1},
			{"LibreOffice warm", "warm", forced, 5},
		}
		if nativeOK < len(files) {
			routes[0].n = 1 // the files native cannot read take a cold conversion each
		}
		routes[1].n = max(1, (3+len(files)-1)/len(files)) // 3 cold conversions at least
		for _, rt := range routes {
			b.Run(strings.ReplaceAll(fam.name, " ", "")+"/"+rt.short, func(b *testing.B) {
				r := row{family: fam.name, route: rt.name, files: len(files)}
				if rt.name == "LibreOffice warm" {
					libreoffice.KeepWarm()
					defer libreoffice.CloseWarm()
					start := time.Now()
					if err := rt.read(ctx, files[0], extract.Options{Scratch: scratch}); err != nil {
						b.Fatalf("%s: %v", files[0], err)
					}
					empty(scratch)
					r.note = fmt.Sprintf("first file %.2f s (LibreOffice's start included)", time.Since(start).Seconds())
				}
				if rt.name == "native (extract.Extract)" {
					r.note = fmt.Sprintf("native reader reads %d of %d", nativeOK, len(files))
				}
				slowest, slowestFile := time.Duration(0), ""
				var took []time.Duration
				for range b.N {
					for range rt.n {
						for _, f := range files {
							start := time.Now()
							if err := rt.read(ctx, f, extract.Options{Scratch: scratch}); err != nil {
								b.Fatalf("%s %s: %v", rt.name, f, err)
							}
							d := time.Since(start)
							took = append(took, d)
							r.secs += d.Seconds()
							if d > slowest {
								slowest, slowestFile = d, filepath.Base(f)
							}
							empty(scratch)
							r.convs++
						}
					}
				}
				slices.Sort(took)
				r.median = took[len(took)/2].Seconds()
				if len(files) > 1 {
					r.note = strings.TrimPrefix(r.note+fmt.Sprintf("; slowest %s %.3f s", slowestFile, slowest.Seconds()), "; ")
				}
				b.ReportMetric(float64(r.convs)/r.secs, "files/s")
				b.ReportMetric(r.perFile(), "s/file")
				rows = append(rows, r)
			})
		}
	}
	report(b, rows)
}

// report prints the table, each route's files/s against the cold
// fallback of its family.
func report(b *testing.B, rows []row) {
	var sb strings.Builder
	load, _ := os.ReadFile("/proc/loadavg") // the machine's load, where Linux tells it
	fmt.Fprintf(&sb, "legacy ingest, ratio to the LibreOffice cold fallback of the same run (%d CPUs, load %s)\n",
		runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	fmt.Fprintf(&sb, "%-9s %-26s %5s %6s %9s %9s %9s %8s  %s\n", "format", "route", "files", "convs", "s/file", "median", "files/s", "×cold", "")
	cold := map[string]float64{}
	for _, r := range rows {
		if r.route == "LibreOffice cold" {
			cold[r.family] = r.perFile()
		}
	}
	for _, r := range rows {
		ratio := "-"
		if c := cold[r.family]; c > 0 {
			ratio = fmt.Sprintf("%.1f×", c/r.perFile())
		}
		fmt.Fprintf(&sb, "%-9s %-26s %5d %6d %9.4f %9.4f %9.2f %8s  %s\n", r.family, r.route, r.files, r.convs, r.perFile(),
			r.median, 1/r.perFile(), ratio, r.note)
	}
	// Printed, not logged: a parent benchmark's log is not shown.
	fmt.Print(sb.String())
}

// empty removes what a file left in dir but LibreOffice's profile, as the
// worker does between files.
func empty(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != libreoffice.Profile {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
