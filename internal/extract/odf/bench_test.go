package odf_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// BenchmarkRead reads each LibreOffice fixture (files per second of the
// reader alone):  go test -run '^$' -bench . ./internal/extract/odf
func BenchmarkRead(b *testing.B) {
	for _, name := range []string{"text.odt", "sheet.ods", "slides.odp", "text.fodt", "../../rtf/testdata/text.rtf"} {
		b.Run(filepath.Base(name), func(b *testing.B) {
			path := filepath.Join("testdata", name)
			opt := extract.Options{Scratch: b.TempDir()}
			for b.Loop() {
				if _, err := extract.Extract(context.Background(), path, filepath.Base(name), opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
