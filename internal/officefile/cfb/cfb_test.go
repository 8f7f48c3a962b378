package cfb_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
	"github.com/fumibako/fumibako/internal/testutil"
)

func open(t *testing.T, b []byte) *cfb.File {
	t.Helper()
	f, err := cfb.Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// patch returns a copy of b with v written at off.
func patch(b []byte, off int64, v uint32) []byte {
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[off:], v)
	return c
}

// TestGuards damages a Word file in the ways a reader must survive: the
// parse ends, keeps what it read, and names the fault.
func TestGuards(t *testing.T) {
	word := testutil.Fixture(t, "word.cfb")
	f := open(t, word)
	if f.Problem != nil {
		t.Fatalf("sound file: %v", f.Problem)
	}
	fatEntry := func(sec uint32) int64 { return (int64(f.H.DIFAT[0])+1)*512 + int64(sec)*4 }
	dirEntry := func(id, field int64) int64 { return (int64(f.H.DirStart)+1)*512 + id*cfb.EntrySize + field }
	tests := []struct {
		name    string
		in      []byte
		stop    cfb.Stop
		problem string
	}{
		{"directory chain loops", patch(word, fatEntry(f.H.DirStart), f.H.DirStart), cfb.StopLoop, "loops"},
		{"directory sector past the end", patch(word, 48, 0x00FFFFF0), cfb.StopBreak, "no directory entries"},
		{"child links back to the root", patch(word, dirEntry(1, 76), 0), cfb.StopEnd, "exceeds"},
		{"sibling past the directory", patch(word, dirEntry(1, 72), 0xFFF0), cfb.StopEnd, "link to entry"},
		{"mini FAT count over the FAT's room", patch(word, 64, 0x7FFFFFFF), cfb.StopEnd, "mini FAT sectors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := open(t, tt.in)
			if g.DirStop != tt.stop {
				t.Errorf("DirStop = %v, want %v", g.DirStop, tt.stop)
			}
			if g.Problem == nil || !errors.Is(g.Problem, cfb.ErrFormat) || !strings.Contains(g.Problem.Error(), tt.problem) {
				t.Errorf("Problem = %v, want one saying %q", g.Problem, tt.problem)
			}
			if len(g.Nodes) > len(g.Entries) {
				t.Errorf("%d nodes from %d entries", len(g.Nodes), len(g.Entries))
			}
		})
	}
}

// TestStreams reads every stream of the Word file whole, in pieces at
// every offset a sector boundary can split, and in one sequential pass,
// and checks all three agree.
func TestStreams(t *testing.T) {
	word := testutil.Fixture(t, "word.cfb")
	f := open(t, word)
	names := map[string]bool{}
	for _, n := range f.Nodes {
		e := &f.Entries[n.ID]
		if !e.IsStream() {
			continue
		}
		names[strings.Join(append(append([]string{}, n.Path...), e.Name()), "/")] = true
		whole := make([]byte, f.StreamSize(e))
		if _, err := f.Stream(e).ReadAt(whole, 0); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		seq, err := io.ReadAll(f.Stream(e))
		if err != nil || !bytes.Equal(seq, whole) {
			t.Errorf("%s: sequential read differs (%v)", e.Name(), err)
		}
		for _, off := range []int64{1, 63, 64, 65, 511, 512, 513, 4095} {
			if off >= int64(len(whole)) {
				continue
			}
			part := make([]byte, min(int64(len(whole))-off, 700))
			if _, err := f.Stream(e).ReadAt(part, off); err != nil || !bytes.Equal(part, whole[off:off+int64(len(part))]) {
				t.Errorf("%s: %d bytes at %d differ (%v)", e.Name(), len(part), off, err)
			}
		}
	}
	for _, want := range []string{"WordDocument", "1Table", "SummaryInformation"} {
		if !names[want] {
			t.Errorf("stream %s not listed (have %v)", want, names)
		}
	}
}
