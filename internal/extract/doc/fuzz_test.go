package doc

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// The fuzz target of the native .doc reader, seeded from the fixtures in
// testdata/legacy and the built document of the tests. An input that is a
// compound file is read as a file; any other input is put into one, so
// the fuzzer spends its time on the records rather than on the container:
// a 16-bit length, the WordDocument stream and the 1Table stream. Every
// input must give places or an *Error; the reader runs without its panic
// recovery.
//
//	go test -run '^$' -fuzz FuzzDoc -fuzztime 20s ./internal/extract/doc/

func FuzzDoc(f *testing.F) {
	word, table := fixture.LegacyStreams(f, "word.doc", "WordDocument", "1Table")
	seed := binary.LittleEndian.AppendUint16(nil, uint16(len(word)))
	f.Add(append(append(seed, word...), table...))
	f.Add(built(f, 0))
	f.Add(fixture.LegacyFile(f, "word.doc"))
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
			if len(data) < 2 || len(data) > fixture.MaxWrapped {
				return
			}
			n := int(binary.LittleEndian.Uint16(data))
			if n > len(data)-2 {
				n = len(data) - 2
			}
			data = fixture.CfbFile(t, map[string][]byte{"WordDocument": data[2 : 2+n], "1Table": data[2+n:]})
		}
		fuzzDoc(t, data)
	})
}

// fuzzDoc reads data as a .doc and checks the outcome's shape.
func fuzzDoc(t *testing.T, data []byte) {
	c, ok := fixture.OpenLegacy(t, data)
	if !ok {
		return
	}
	res, err := readDocCompound(context.Background(), c, extract.DefaultLimits)
	if err != nil {
		return // any error becomes Corrupt through extract.Failure
	}
	fixture.CheckPlaces(t, res)
}
