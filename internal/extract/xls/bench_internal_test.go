package xls

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/libreoffice"
	"github.com/fumibako/fumibako/internal/testutil"
)

// BenchmarkLegacyExcel reads the .xls and .xlsb files of the shared corpus
// the native way and the LibreOffice way (the legacy path with no native
// reader: one soffice conversion per file, the profile kept between files
// as a worker keeps it) in the same run, and reports files per second of
// each and their ratio. Each iteration reads every file natively and one
// file (in turn) through LibreOffice; run it with a fixed count:
//
//	go test -run '^$' -bench BenchmarkLegacyExcel -benchtime 20x ./internal/extract/
//
// Without LibreOffice only the native side is measured.
func BenchmarkLegacyExcel(b *testing.B) {
	root := testutil.Corpus(b)
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			switch strings.ToLower(filepath.Ext(p)) {
			case ".xls", ".xlsb":
				files = append(files, p)
			}
		}
		return nil
	})
	if len(files) == 0 {
		testutil.CorpusMissing(b, "no .xls or .xlsb under %s", root)
	}
	_, loErr := libreoffice.Find()
	if loErr != nil {
		b.Log("LibreOffice (soffice) not found: measuring the native readers only")
	}
	ctx := context.Background()
	scratch := b.TempDir()
	var nativeDur, loDur time.Duration
	var nativeFiles, loFiles int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		for _, f := range files {
			extract.NativeReaders()[strings.ToLower(filepath.Ext(f))](ctx, f, extract.Options{Scratch: scratch})
		}
		nativeDur += time.Since(start)
		nativeFiles += len(files)
		if loErr == nil {
			f := files[i%len(files)]
			start := time.Now()
			libreoffice.ReadLegacyWith(ctx, f, extract.Options{Scratch: scratch}, map[string]extract.Reader{})
			loDur += time.Since(start)
			loFiles++
		}
	}
	b.StopTimer()
	nativeRate := float64(nativeFiles) / nativeDur.Seconds()
	b.ReportMetric(nativeRate, "native-files/s")
	if loFiles > 0 {
		loRate := float64(loFiles) / loDur.Seconds()
		b.ReportMetric(loRate, "lo-files/s")
		b.ReportMetric(nativeRate/loRate, "native/lo")
	}
}

// BenchmarkBIFF5 reads the Excel 5.0/95 workbooks and Excel 3.0/4.0
// worksheets (the shared corpus's and the cp932 ones built in
// biff5_internal_test.go) natively and
// through LibreOffice (the legacy path with no native reader, the profile
// kept between files), and reports files per second of each:
//
//	go test -run '^$' -bench BenchmarkBIFF5 -benchtime 10x ./internal/extract/xls/
func BenchmarkBIFF5(b *testing.B) {
	files := []string{
		fixture.WriteTemp(b, "cp932.xls", fixture.CfbFile(b, map[string][]byte{"Book": cp932Book(b)})),
		fixture.WriteTemp(b, "biff4.xls", oldBook(b, 4)),
	}
	corpus := testutil.CorpusDir(b) // its files are used when present
	for _, rel := range append(biff5CorpusFiles, oldCorpusFiles...) {
		if p := filepath.Join(corpus, rel); fileExists(p) {
			files = append(files, p)
		}
	}
	ctx := context.Background()
	scratch := b.TempDir()
	b.Run("native", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				if _, err := readXlsNative(ctx, f, extract.Options{Scratch: scratch}); err != nil {
					b.Fatalf("%s: %v", f, err)
				}
			}
		}
		b.ReportMetric(float64(b.N*len(files))/b.Elapsed().Seconds(), "files/s")
	})
	b.Run("libreoffice", func(b *testing.B) {
		if _, err := libreoffice.Find(); err != nil {
			b.Skip("LibreOffice (soffice) not found")
		}
		for i := 0; i < b.N; i++ {
			f := files[i%len(files)]
			if _, err := libreoffice.ReadLegacyWith(ctx, f, extract.Options{Scratch: scratch}, map[string]extract.Reader{}); err != nil {
				b.Fatalf("%s: %v", f, err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "files/s")
	})
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
