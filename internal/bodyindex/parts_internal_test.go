package bodyindex

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

func indexBytes(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), format.ManifestName) {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = string(b)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no index files in %s", dir)
	}
	return out
}

// TestIncrementalEqualsScratch publishes random changes round after round
// and checks, each round, every file's text and that the index equals the
// one published from scratch with the same files (so reused parts are the
// bytes that encoding would give).
func TestIncrementalEqualsScratch(t *testing.T) {
	indextest.SmallParts(t)
	r := rand.New(rand.NewPCG(1, 2))
	dir := indextest.TempDir(t)
	model := map[string][]extract.Place{}
	for round := 0; round < 12; round++ {
		var removed []string
		for i := 0; i < 1+r.IntN(6); i++ {
			name := fmt.Sprintf("file%02d.xlsx", r.IntN(30))
			if r.IntN(4) == 0 {
				removed = append(removed, strings.ToUpper(name))
				delete(model, name)
				continue
			}
			places := indextest.RandomPlaces(r)
			if _, err := content.WriteFolder(filepath.Join(dir, name), places); err != nil {
				t.Fatal(err)
			}
			model[name] = places
		}
		if err := Publish(dir, removed); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		files, err := format.Files(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(model) {
			t.Fatalf("round %d: %d files, want %d", round, len(files), len(model))
		}
		for name, want := range model {
			got, err := format.ReadFile(dir, name)
			if err != nil {
				t.Fatalf("round %d: ReadFile(%s): %v", round, name, err)
			}
			if len(want) == 0 {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: ReadFile(%s) = %q, want %q", round, name, got, want)
			}
		}
		scratch := indextest.TempDir(t)
		for name, places := range model {
			content.WriteFolder(filepath.Join(scratch, name), places)
		}
		if err := Publish(scratch, nil); err != nil {
			t.Fatal(err)
		}
		if a, b := indexBytes(t, dir), indexBytes(t, scratch); !reflect.DeepEqual(a, b) {
			t.Fatalf("round %d: incremental index (%d files) differs from scratch (%d files)", round, len(a), len(b))
		}
	}
}

// TestReuseKeepsParts checks that changing one file leaves the parts of
// far-away chunks untouched (same names).
// publishNumbered publishes a folder of 40 small numbered files (several
// parts with smallParts) and returns it.
func publishNumbered(t *testing.T) string {
	t.Helper()
	dir := indextest.TempDir(t)
	for i := 0; i < 40; i++ {
		content.WriteFolder(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []extract.Place{{Name: "本文", Lines: []string{strings.Repeat(fmt.Sprintf("line %d ", i), 5)}}})
	}
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReuseKeepsParts(t *testing.T) {
	indextest.SmallParts(t)
	dir := publishNumbered(t)
	before := indexBytes(t, dir)
	content.WriteFolder(filepath.Join(dir, "f39.txt"), []extract.Place{{Name: "本文", Lines: []string{"changed"}}})
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	after := indexBytes(t, dir)
	kept := 0
	for n := range before {
		if _, ok := after[n]; ok && n != format.ManifestName {
			kept++
		}
	}
	if len(before) < 4 || kept < len(before)-3 {
		t.Fatalf("%d of %d parts kept", kept, len(before)-1)
	}
}

// TestHugeFileSpansParts checks a file larger than a part.
func TestHugeFileSpansParts(t *testing.T) {
	indextest.SmallParts(t)
	dir := indextest.TempDir(t)
	var lines []string
	for i := 0; i < 200; i++ {
		lines = append(lines, fmt.Sprintf("行 %d の本文", i))
	}
	places := []extract.Place{{Name: "ページ001", Lines: lines[:120]}, {Name: "ページ002", Lines: lines[120:]}}
	content.WriteFolder(filepath.Join(dir, "big.docx"), places)
	content.WriteFolder(filepath.Join(dir, "small.docx"), []extract.Place{{Name: "ページ001", Lines: []string{"x"}}})
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	f, err := format.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.NumParts() < 5 {
		t.Fatalf("%d parts, want the big file split", f.NumParts())
	}
	got, err := f.Places(0)
	if err != nil || !reflect.DeepEqual(got, places) {
		t.Fatalf("Places = %v, %v", len(got), err)
	}
}

// TestLegacyConvert registers a reader for a made-up older version and
// checks that Rebuild converts in place.
func TestLegacyConvert(t *testing.T) {
	dir := indextest.TempDir(t)
	legacy := []byte("FUMIBAKI" + "\x07\x00\x00\x00" + strings.Repeat("\x00", 20))
	os.WriteFile(filepath.Join(dir, format.ManifestName), legacy, 0o644)
	legacyReaders[7] = func(string) ([]LegacyFile, error) {
		return []LegacyFile{{Name: "old.txt", Places: []extract.Place{{Name: "本文", Lines: []string{"kept text"}}}}}, nil
	}
	defer delete(legacyReaders, 7)
	if !format.NeedsRebuild(dir) {
		t.Fatal("NeedsRebuild = false for version 7")
	}
	if err := Rebuild(dir); err != nil {
		t.Fatal(err)
	}
	got, err := format.ReadFile(dir, "old.txt")
	if err != nil || !reflect.DeepEqual(got, []extract.Place{{Name: "本文", Lines: []string{"kept text"}}}) {
		t.Fatalf("after convert: %q, %v", got, err)
	}
}

// TestPublishCrashBeforeCommit stops a publish at the manifest rename and
// checks that the old index is still read and a new publish completes with
// the bytes of an uninterrupted one.
func TestPublishCrashBeforeCommit(t *testing.T) {
	dir := indextest.TempDir(t)
	writeFolder := func(root, line string) {
		t.Helper()
		if _, err := content.WriteFolder(filepath.Join(root, "a.txt"), []extract.Place{{Name: "本文", Lines: []string{line}}}); err != nil {
			t.Fatal(err)
		}
	}
	readLine := func(when string) string {
		t.Helper()
		got, err := format.ReadFile(dir, "a.txt")
		if err != nil || len(got) != 1 || len(got[0].Lines) != 1 {
			t.Fatalf("%s the index reads %q, %v", when, got, err)
		}
		return got[0].Lines[0]
	}
	writeFolder(dir, "old")
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	writeFolder(dir, "new")
	crash := errors.New("crash before the manifest")
	beforeCommit = func(final string) error {
		if filepath.Base(final) == format.ManifestName {
			return crash
		}
		return nil
	}
	err := Publish(dir, nil)
	beforeCommit = func(string) error { return nil }
	if !errors.Is(err, crash) {
		t.Fatalf("publish returned %v, want the crash", err)
	}
	if got := readLine("after the crash"); got != "old" {
		t.Fatalf("after the crash the index reads %q", got)
	}
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	if got := readLine("after the redo"); got != "new" {
		t.Fatalf("after the redo the index reads %q", got)
	}
	scratch := indextest.TempDir(t)
	writeFolder(scratch, "new")
	if err := Publish(scratch, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := indexBytes(t, dir), indexBytes(t, scratch); !reflect.DeepEqual(a, b) {
		t.Fatalf("redo left %d files, scratch has %d", len(a), len(b))
	}
}

// TestOpenFolderSome: with the manifest's part ids, only the passing parts
// are mapped; with other ids (a manifest replaced since), every part.
func TestOpenFolderSome(t *testing.T) {
	indextest.SmallParts(t)
	dir := publishNumbered(t)
	all, err := format.OpenFolder(dir)
	if err != nil || all == nil || all.NumParts() < 3 {
		t.Fatalf("OpenFolder: %v, %v", all, err)
	}
	defer all.Close()
	ids := make([][format.IDSize]byte, all.NumParts())
	pass := make([]bool, all.NumParts())
	for i := range ids {
		ids[i], pass[i] = all.PartID(i), i == 1
	}
	some, err := format.OpenFolderSome(dir, ids, pass)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ids {
		mapped := some.Part(i) != nil
		if mapped != pass[i] || !mapped && some.PartErr(i) != format.ErrNotMapped {
			t.Errorf("part %d: mapped %v, error %v; want mapped %v", i, mapped, some.PartErr(i), pass[i])
		}
	}
	if p := some.Part(1); p == nil || p.Path() != all.Part(1).Path() || p.Size() != all.Part(1).Size() {
		t.Error("the passing part differs from the one OpenFolder maps")
	}
	some.Close()
	ids[0][0] ^= 1 // another manifest: every part
	other, err := format.OpenFolderSome(dir, ids, pass)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for i := range ids {
		if other.Part(i) == nil {
			t.Errorf("part %d not mapped for another manifest's ids: %v", i, other.PartErr(i))
		}
	}
}
