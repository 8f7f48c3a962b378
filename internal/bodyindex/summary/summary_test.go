package summary_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/textfold"
)

// summaryCorpus publishes an index "案件" of nested folders, each with
// files holding words of its own, and returns the content root.
func summaryCorpus(t *testing.T) string {
	t.Helper()
	root := filepath.Join(indextest.TempDir(t), "content")
	for i, rel := range []string{"", "東京", "東京/2024", "東京/2025", "大阪", "大阪/古い/もっと古い", "空"} {
		dir := filepath.Join(root, "案件", filepath.FromSlash(rel))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if rel == "空" || rel == "大阪" {
			continue // folders without a body index
		}
		for f := 0; f < 3; f++ {
			indextest.Stage(t, dir, fmt.Sprintf("資料%d.txt", f), indextest.Place("本文", fmt.Sprintf("共通の行 word%d%d 固有%d語%d", i, f, i, f), "二行目"))
		}
		if err := bodyindex.Publish(dir, nil); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func candidates(t *testing.T, s *summary.Reader, word string) []bool {
	t.Helper()
	set, err := s.Candidates(textfold.QueryKeys(textfold.String(word)))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]bool, s.Parts())
	for j := range out {
		out[j] = set[j/64]&(1<<uint(j%64)) != 0
	}
	return out
}

// writtenSummary writes the summary of the corpus's index and opens it
// for the test; it returns the content root and the summary.
func writtenSummary(t *testing.T) (string, *summary.Reader) {
	t.Helper()
	root := summaryCorpus(t)
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	s, err := summary.Open(root, "案件")
	if err != nil || s == nil {
		t.Fatalf("OpenSummary: %v, %v", s, err)
	}
	t.Cleanup(func() { s.Close() })
	return root, s
}

func TestSummaryRoundTrip(t *testing.T) {
	root, s := writtenSummary(t)
	tests := []struct {
		rel      string
		subdirs  []string
		hasIndex bool
	}{
		{"", []string{"大阪", "東京", "空"}, true},
		{"東京", []string{"2024", "2025"}, true},
		{"東京/2024", nil, true},
		{"大阪", []string{"古い"}, false},
		{"大阪/古い", []string{"もっと古い"}, false},
		{"大阪/古い/もっと古い", nil, true},
		{"空", nil, false},
	}
	for _, tt := range tests {
		d := s.Dir(tt.rel)
		if d == nil {
			t.Fatalf("Dir(%q) = nil", tt.rel)
		}
		got := slices.Clone(d.Subdirs)
		slices.Sort(got)
		want := slices.Clone(tt.subdirs)
		slices.Sort(want)
		if !slices.Equal(got, want) || d.HasIndex != tt.hasIndex || d.Opaque {
			t.Errorf("Dir(%q) = subdirs %q index %v opaque %v, want %q %v", tt.rel, got, d.HasIndex, d.Opaque, want, tt.hasIndex)
		}
		path := filepath.Join(root, "案件", filepath.FromSlash(tt.rel))
		if s.FreshDir(tt.rel) == nil {
			t.Errorf("Dir(%q) is not fresh right after writing", tt.rel)
		}
		if tt.hasIndex {
			f, err := format.OpenFolder(path)
			if err != nil {
				t.Fatal(err)
			}
			if f.NumParts() != len(d.PartIDs) {
				t.Fatalf("Dir(%q): %d parts, manifest has %d", tt.rel, len(d.PartIDs), f.NumParts())
			}
			for i := range d.PartIDs {
				if f.PartID(i) != d.PartIDs[i] {
					t.Errorf("Dir(%q) part %d: id differs from the manifest", tt.rel, i)
				}
			}
			f.Close()
		}
	}
	if s.Dir("nowhere") != nil {
		t.Error("Dir of an unknown folder is not nil")
	}

	// No part that holds a word is ever left out; a word no part holds
	// lets (nearly) nothing through.
	partOf := map[string]int{}
	for _, rel := range []string{"", "東京", "東京/2024", "東京/2025", "大阪/古い/もっと古い"} {
		partOf[rel] = s.Dir(rel).FirstPart
	}
	for i, rel := range []string{"", "東京", "東京/2024", "東京/2025", "", "大阪/古い/もっと古い"} {
		if i == 4 {
			continue
		}
		for f := 0; f < 3; f++ {
			for _, w := range []string{fmt.Sprintf("word%d%d", i, f), fmt.Sprintf("固有%d語%d", i, f), "共通の行", "WORD", "二"} {
				if !candidates(t, s, w)[partOf[rel]] {
					t.Errorf("%q: part of folder %q left out", w, rel)
				}
			}
		}
	}
	n := 0
	for _, c := range candidates(t, s, "どこにもない語ですよ") {
		if c {
			n++
		}
	}
	if n > 1 {
		t.Errorf("an absent word let %d of %d parts through", n, s.Parts())
	}
	if got := candidates(t, s, ""); slices.Contains(got, false) {
		t.Error("no keys must let every part through")
	}
}

func TestSummaryFreshness(t *testing.T) {
	root := summaryCorpus(t)
	path := summary.Path(root, "案件")
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	// Nothing changed: the summary is not written again.
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(path); !after.ModTime().Equal(before.ModTime()) {
		t.Error("an unchanged index got its summary rewritten")
	}

	// A publish and a new sub-folder make their folders stale.
	tokyo := filepath.Join(root, "案件", "東京")
	indextest.Stage(t, tokyo, "新規.txt", indextest.Place("本文", "あたらしい単語"))
	if err := bodyindex.Publish(tokyo, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "案件", "空", "新しい"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := summary.Open(root, "案件")
	if err != nil {
		t.Fatal(err)
	}
	for rel, fresh := range map[string]bool{"東京": false, "空": false, "東京/2024": true, "": true} {
		if got := s.FreshDir(rel) != nil; got != fresh {
			t.Errorf("Dir(%q).Fresh = %v, want %v", rel, got, fresh)
		}
	}
	s.Close()
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	s, err = summary.Open(root, "案件")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if d := s.Dir("空"); !slices.Equal(d.Subdirs, []string{"新しい"}) {
		t.Errorf("after rewriting: 空 has sub-folders %q", d.Subdirs)
	}
	if !candidates(t, s, "あたらしい単語")[s.Dir("東京").FirstPart] {
		t.Error("after rewriting: the new word's part is left out")
	}

	// An index folder that is gone takes its summary with it.
	if err := os.RemoveAll(filepath.Join(root, "案件")); err != nil {
		t.Fatal(err)
	}
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("summary of a removed index: %v", err)
	}
}

func TestSummaryDamaged(t *testing.T) {
	root := summaryCorpus(t)
	if err := summary.Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	path := summary.Path(root, "案件")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := summary.Open(indextest.TempDir(t), "案件"); s != nil || err != nil {
		t.Errorf("missing summary: %v, %v; want nil, nil", s, err)
	}
	for _, tt := range []struct {
		name string
		edit func([]byte) []byte
		want string // in the error of Open or Candidates
	}{
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "not a summary"},
		{"version", func(b []byte) []byte { b[8] = 9; return b }, "version 9"},
		{"cut", func(b []byte) []byte { return b[:len(b)-1] }, "does not fit"},
		{"empty", func(b []byte) []byte { return nil }, "header"},
		{"folder table", func(b []byte) []byte { b[64+4] ^= 0x40; return b }, "checksum"},
		{"row", func(b []byte) []byte { b[len(b)-10] ^= 0xFF; return b }, "checksum"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(path, tt.edit(slices.Clone(good)), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := summary.Open(root, "案件")
			if err == nil {
				defer s.Close()
				// A damaged row is found when a query reads it: try keys
				// until one lands on it (every row is read by some key;
				// keys spread over all blocks of rows).
				for n := uint32(0); n < 1<<20 && err == nil; n++ {
					_, err = s.Candidates([]uint32{n * 2654435761})
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func FuzzSummary(f *testing.F) {
	root := filepath.Join(f.TempDir(), "content")
	dir := filepath.Join(root, "x")
	os.MkdirAll(dir, 0o755)
	indextest.Stage(f, dir, "a.txt", indextest.Place("本文", "りんご apple"))
	if err := bodyindex.Publish(dir, nil); err != nil {
		f.Fatal(err)
	}
	if err := summary.Write(root, "x"); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(summary.Path(root, "x"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:64])
	f.Fuzz(func(t *testing.T, data []byte) {
		croot := indextest.TempDir(t)
		if err := os.WriteFile(summary.Path(croot, "x"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := summary.Open(croot, "x")
		if err != nil {
			return
		}
		defer s.Close()
		for _, d := range []string{"", "a", "a/b"} {
			s.FreshDir(d)
		}
		s.Candidates(textfold.QueryKeys("りんご"))
	})
}

// TestSummaryLive: the folders live for a word are the ones on the way to
// the folder holding it; the others' indexed folders are counted.
func TestSummaryLive(t *testing.T) {
	_, s := writtenSummary(t)
	if !s.Trusted() {
		t.Fatal("a summary written after the last publish is not trusted")
	}
	set, err := s.Candidates(textfold.QueryKeys(textfold.String("固有5語0")))
	if err != nil {
		t.Fatal(err)
	}
	live, indexed := s.Live(set, false)
	tests := []struct {
		rel     string
		live    bool
		indexed int
	}{
		{"", true, 5},
		{"東京", false, 3},
		{"東京/2024", false, 1},
		{"大阪", true, 1},
		{"大阪/古い", true, 1},
		{"大阪/古い/もっと古い", true, 1},
		{"空", false, 0},
	}
	for _, tt := range tests {
		d := s.Dir(tt.rel)
		if d == nil {
			t.Fatalf("%q: no entry", tt.rel)
		}
		if s.Entry(d.Number) != d {
			t.Errorf("%q: Entry(%d) is not its entry", tt.rel, d.Number)
		}
		if live[d.Number] != tt.live || indexed[d.Number] != tt.indexed {
			t.Errorf("%q: live %v, indexed %d; want %v, %d", tt.rel, live[d.Number], indexed[d.Number], tt.live, tt.indexed)
		}
	}
	for i, c := range s.Dir("東京").Children {
		if got := s.Dir("東京/" + s.Dir("東京").Subdirs[i]); got.Number != c {
			t.Errorf("東京's child %d is folder %d, want %d", i, c, got.Number)
		}
	}
}
