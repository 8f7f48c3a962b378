package ppt

import (
	"bytes"
	"context"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// The fuzz target of the native .ppt reader, seeded from the fixture in
// testdata/legacy. An input that is a compound file is read as a file; any
// other input is put into one as the PowerPoint Document stream (without a
// Current User stream, so the reader also scans for the last edit). Every
// input must give places or an *Error; the reader runs without its panic
// recovery.
//
//	go test -run '^$' -fuzz FuzzPpt -fuzztime 20s ./internal/extract/ppt/

func FuzzPpt(f *testing.F) {
	doc, _ := fixture.LegacyStreams(f, "slides.ppt", "PowerPoint Document", "")
	f.Add(doc)
	f.Add(fixture.LegacyFile(f, "slides.ppt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, embed.CfbMagic) {
			if len(data) > fixture.MaxWrapped {
				return
			}
			data = fixture.CfbFile(t, map[string][]byte{"PowerPoint Document": data})
		}
		c, ok := fixture.OpenLegacy(t, data)
		if !ok {
			return
		}
		if res, err := ReadCompound(context.Background(), c, extract.DefaultLimits); err == nil {
			fixture.CheckPlaces(t, res)
		}
	})
}
