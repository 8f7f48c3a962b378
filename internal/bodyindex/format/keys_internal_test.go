package format

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// TestKeysIn: the keys a KeyFile reads for a range are the keys of the
// parsed part in that range, for ranges in and around the gram index's
// strides; a part without its gram section cannot be read.
func TestKeysIn(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for i := 0; i < 3000; i++ {
		lines = append(lines, fmt.Sprintf("行%d 見積%d item-%d", i, i*7, i*13))
	}
	writeFolder(t, dir, testFile{"a.txt", []extract.Place{{Name: "本文", Lines: lines}}})
	f, err := OpenFolder(dir)
	if err != nil || f == nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := f.Part(0)
	path := filepath.Join(dir, PartName(f.PartID(0)))
	if p.nKeys < 4*GramIndexStep || p.gidx == nil {
		t.Fatalf("%d keys, gram index %v: too few for the test", p.nKeys, p.gidx != nil)
	}
	k, err := OpenKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if k.n != p.nKeys || PartKeyCount(path) != p.nKeys {
		t.Fatalf("key count %d (partKeyCount %d), parsed %d", k.n, PartKeyCount(path), p.nKeys)
	}
	le := binary.LittleEndian
	key := func(i int) uint64 { return uint64(le.Uint32(p.keys[4*i:])) }
	r := rand.New(rand.NewPCG(1, 2))
	bounds := []uint64{0, key(0), key(GramIndexStep), key(GramIndexStep) + 1, key(p.nKeys - 1), key(p.nKeys-1) + 1, 1 << 32}
	for range 200 {
		bounds = append(bounds, uint64(r.Uint32()))
	}
	for _, from := range bounds {
		to := bounds[r.IntN(len(bounds))]
		got, err := k.KeysIn(from, to)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		for i := 0; i < p.nKeys; i++ {
			if key(i) >= from && key(i) < to {
				want = le.AppendUint32(want, uint32(key(i)))
			}
		}
		if string(got) != string(want) {
			t.Fatalf("keys in %d..%d: %d read, want %d", from, to, len(got)/4, len(want)/4)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut")
	if err := os.WriteFile(cut, data[:200], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenKeys(cut); err == nil {
		t.Error("a part cut after 200 bytes opens for its keys")
	}
}
