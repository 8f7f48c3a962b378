package doc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/extract/ppt"
)

// Fuzz targets of the native .doc and .ppt readers, seeded from the
// fixtures in testdata/legacy and the built document of the tests. An
// input that is a compound file is read as a file; any other input is put
// into one, so the fuzzer spends its time on the records rather than on
// the container: for FuzzDoc a 16-bit length, the WordDocument stream and
// the 1Table stream; for FuzzPpt the PowerPoint Document stream (without a
// Current User stream, so the reader also scans for the last edit). Every
// input must give places or an *Error; the readers run without their panic
// recovery.
//
//	go test -run '^$' -fuzz FuzzDoc -fuzztime 20s ./internal/extract/
//	go test -run '^$' -fuzz FuzzPpt -fuzztime 20s ./internal/extract/

// fuzzMaxWrapped bounds wrapped inputs to what fixture.CfbFile can lay out.
const fuzzMaxWrapped = 48 << 10

func FuzzDoc(f *testing.F) {
	word, table := fixtureStreams(f, "word.doc", "WordDocument", "1Table")
	seed := binary.LittleEndian.AppendUint16(nil, uint16(len(word)))
	f.Add(append(append(seed, word...), table...))
	f.Add(built(f, 0))
	f.Add(fixtureFile(f, "word.doc"))
	// Word 6/95 documents; three of them are kept in testdata/fuzz/FuzzDoc
	// (go test -run FuzzDoc -update writes them).
	w6 := map[string][]byte{}
	for _, c := range word6Cases {
		switch c.name {
		case "japanese", "japanese_ext_complex", "western_complex":
			w6["word95-"+c.name] = c.build(f)
		default:
			f.Add(c.build(f))
		}
	}
	fixture.NativeFuzzSeeds(f, w6)
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, embed.CfbMagic) {
			if len(data) < 2 || len(data) > fuzzMaxWrapped {
				return
			}
			n := int(binary.LittleEndian.Uint16(data))
			if n > len(data)-2 {
				n = len(data) - 2
			}
			data = fixture.CfbFile(t, map[string][]byte{"WordDocument": data[2 : 2+n], "1Table": data[2+n:]})
		}
		fuzzLegacy(t, "f.doc", data)
	})
}

func FuzzPpt(f *testing.F) {
	doc, _ := fixtureStreams(f, "slides.ppt", "PowerPoint Document", "")
	f.Add(doc)
	f.Add(fixtureFile(f, "slides.ppt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, embed.CfbMagic) {
			if len(data) > fuzzMaxWrapped {
				return
			}
			data = fixture.CfbFile(t, map[string][]byte{"PowerPoint Document": data})
		}
		fuzzLegacy(t, "f.ppt", data)
	})
}

// fuzzLegacy reads data and checks the outcome's shape.
func fuzzLegacy(t *testing.T, name string, data []byte) {
	c, err := streams.OpenBytes(data, extract.DefaultLimits)
	if err != nil {
		var fe *extract.Error
		if !errors.As(err, &fe) {
			t.Fatalf("open: error is not an *Error: %v", err)
		}
		return
	}
	var res *extract.Result
	if filepath.Ext(name) == ".ppt" {
		res, err = ppt.ReadCompound(context.Background(), c, extract.DefaultLimits)
	} else {
		res, err = readDocCompound(context.Background(), c, extract.DefaultLimits)
	}
	if err != nil {
		return // any error becomes Corrupt through extract.Failure
	}
	for _, p := range res.Places {
		if p.Name == "" || len(p.Lines) == 0 {
			t.Fatalf("place %q with %d lines", p.Name, len(p.Lines))
		}
		for _, l := range p.Lines {
			if l == "" || bytes.ContainsAny([]byte(l), "\r\n") {
				t.Fatalf("place %s: bad line %q", p.Name, l)
			}
		}
	}
}

func fixtureFile(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "legacy", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// fixtureStreams returns two streams of a fixture ("" for none).
func fixtureStreams(tb testing.TB, file, a, b string) ([]byte, []byte) {
	tb.Helper()
	c, err := streams.OpenBytes(fixtureFile(tb, file), extract.DefaultLimits)
	if err != nil {
		tb.Fatal(err)
	}
	var out [2][]byte
	for i, n := range []string{a, b} {
		if n == "" {
			continue
		}
		if out[i], err = c.Stream(n); err != nil {
			tb.Fatal(err)
		}
	}
	return out[0], out[1]
}
