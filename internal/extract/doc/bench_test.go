package doc

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/extract/libreoffice"
	"github.com/fumibako/fumibako/internal/extract/ppt"
	"github.com/fumibako/fumibako/internal/testutil"
)

// BenchmarkLegacyWordPowerPoint reads the same legacy Word and PowerPoint
// files natively and through LibreOffice (the legacy path with no native
// reader: convert to .docx/.pptx, read the package), in one run, and
// reports files/s of each; their ratio is the speed-up of issue 6. The
// files are the fixtures of testdata/legacy and, when ../shared/corpus is
// present, its .doc and .ppt files that are not encrypted. LibreOffice's
// profile is kept between files, as a worker keeps it.
//
//	go test ./internal/extract -run '^$' -bench LegacyWordPowerPoint -benchtime 1x
func BenchmarkLegacyWordPowerPoint(b *testing.B) {
	files := benchLegacyFiles(b)
	ctx := context.Background()
	b.Run("native", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				read := readDocNative
				if strings.EqualFold(filepath.Ext(f), ".ppt") {
					read = ppt.ReadNative
				}
				read(ctx, f, extract.Options{})
			}
		}
		b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	})
	b.Run("libreoffice", func(b *testing.B) {
		if _, err := libreoffice.Find(); err != nil {
			testutil.Unavailable(b, "LibreOffice (soffice) is not installed: %v", err)
		}
		scratch := b.TempDir()
		for i := 0; i < b.N; i++ {
			for _, f := range files {
				libreoffice.ReadLegacyWith(ctx, f, extract.Options{Scratch: scratch}, map[string]extract.Reader{})
				benchEmptyScratch(b, scratch)
			}
		}
		b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	})
}

// benchLegacyFiles lists the fixtures and the corpus' readable .doc and
// .ppt files.
func benchLegacyFiles(b *testing.B) []string {
	files := []string{filepath.Join("..", "testdata", "legacy", "word.doc"), filepath.Join("..", "testdata", "legacy", "slides.ppt")}
	root := testutil.CorpusDir(b) // walked when present
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".doc", ".ppt":
			if c, err := streams.Open(p, extract.DefaultLimits); err == nil {
				c.Close()
				files = append(files, p)
			}
		}
		return nil
	})
	return files
}

// benchEmptyScratch removes what a file left in the scratch folder but
// LibreOffice's profile.
func benchEmptyScratch(b *testing.B, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != libreoffice.Profile {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
