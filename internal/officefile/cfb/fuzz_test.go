package cfb_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
	"github.com/fumibako/fumibako/internal/testutil"
)

// FuzzOpen parses arbitrary bytes, walks every stream whole and in
// chunks, and holds the outcome to mscfb's wherever mscfb itself survives
// the input: it must never panic, loop or allocate past the file's size.
func FuzzOpen(f *testing.F) {
	testutil.AddSeeds(f, "*.cfb")
	f.Add(append(append([]byte(nil), cfb.Signature...), make([]byte, 504)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := cfb.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, n := range c.Nodes {
			e := &c.Entries[n.ID]
			s := c.Stream(e)
			size := min(s.Size(), int64(len(data)))
			buf := make([]byte, size)
			if got, err := s.ReadAt(buf, 0); err == nil && int64(got) != size {
				t.Fatalf("ReadAt read %d of %d bytes without an error", got, size)
			}
			io.Copy(io.Discard, io.LimitReader(c.Stream(e), size))
		}
		if len(c.Nodes) > len(c.Entries) {
			t.Fatalf("%d nodes from %d entries", len(c.Nodes), len(c.Entries))
		}
		want := theirOutcome(data)
		if want == "mscfb panicked\n" {
			return
		}
		if got := ourOutcome(data); got != want {
			t.Fatalf("differs from mscfb:\n got: %s\nwant: %s", got, want)
		}
	})
}
