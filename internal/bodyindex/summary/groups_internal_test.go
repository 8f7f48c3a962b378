package summary

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/textfold"
)

// refs makes parts of the given sizes; a size below 0 marks an anchor
// part (its id's first byte ends a group that holds groupMin bytes).
func refs(seed byte, sizes ...int) []format.PartRef {
	var out []format.PartRef
	for i, n := range sizes {
		r := format.PartRef{Size: int64(n)}
		r.ID[1], r.ID[2] = seed, byte(i)
		r.ID[0] = 1 // not an anchor
		if n < 0 {
			r.ID[0], r.Size = 4, int64(-n)
		}
		out = append(out, r)
	}
	return out
}

// TestGroupParts checks where groups end: after groupMax bytes, after an
// anchor part once they hold groupMin, at the end of a folder; and that
// a changed part changes its own group and at most the next one.
func TestGroupParts(t *testing.T) {
	gn, gx := groupMin, groupMax
	groupMin, groupMax = 100, 200
	t.Cleanup(func() { groupMin, groupMax = gn, gx })
	tests := []struct {
		name   string
		folder [][]format.PartRef
		want   [][2]int // first, n
	}{
		{"one small folder", [][]format.PartRef{refs(0, 10, 20)}, [][2]int{{0, 2}}},
		{"anchor before min does not end", [][]format.PartRef{refs(0, -50, 10, 60)}, [][2]int{{0, 3}}},
		{"anchor after min ends", [][]format.PartRef{refs(0, 50, -60, 10, 10)}, [][2]int{{0, 2}, {2, 2}}},
		{"max ends without anchor", [][]format.PartRef{refs(0, 90, 90, 90, 90, 5)}, [][2]int{{0, 3}, {3, 2}}},
		{"a large part alone", [][]format.PartRef{refs(0, 500, 500)}, [][2]int{{0, 1}, {1, 1}}},
		{"never across folders", [][]format.PartRef{refs(0, 10, 10), nil, refs(1, 10), refs(2, 150, -10)}, [][2]int{{0, 2}, {2, 1}, {3, 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dirs []sumDir
			first := 0
			for _, ps := range tt.folder {
				dirs = append(dirs, sumDir{first: first, parts: ps})
				first += len(ps)
			}
			var got [][2]int
			for _, g := range groupParts(dirs) {
				got = append(got, [2]int{g.first, g.n})
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("groups %v, want %v", got, tt.want)
			}
		})
	}

	// Stability: 40 parts, one changed in the middle (new id and size).
	sizes := make([]int, 40)
	for i := range sizes {
		sizes[i] = 20 + i%7*5
		if i%3 == 0 {
			sizes[i] = -sizes[i]
		}
	}
	before := groupParts([]sumDir{{parts: refs(0, sizes...)}})
	changed := refs(0, sizes...)
	changed[20].ID[3], changed[20].Size = 9, 77
	after := groupParts([]sumDir{{parts: changed}})
	ids := func(gs []summaryGroup) map[[format.IDSize]byte]bool {
		m := map[[format.IDSize]byte]bool{}
		for _, g := range gs {
			m[g.id] = true
		}
		return m
	}
	old := ids(before)
	gone := 0
	for _, g := range after {
		if !old[g.id] {
			gone++
		}
	}
	if gone == 0 || gone > 2 {
		t.Errorf("one changed part changed %d of %d groups, want 1 or 2", gone, len(after))
	}
}

// TestSummaryGroupCandidates checks that a word lets through every part
// that holds it, and whole groups only.
func TestSummaryGroupCandidates(t *testing.T) {
	root := manyPartsCorpus(t)
	if err := Write(root, "案件"); err != nil {
		t.Fatal(err)
	}
	s, err := Open(root, "案件")
	if err != nil || s == nil {
		t.Fatalf("OpenSummary: %v, %v", s, err)
	}
	defer s.Close()
	dirs := walkForSummary(filepath.Join(root, "案件"))
	listSummaryParts(filepath.Join(root, "案件"), dirs)
	narrowed, held := false, 0
	for i := 0; i < 24; i += 5 {
		word := fmt.Sprintf("部%d/課%d", i%4, i)
		set, err := s.Candidates(textfold.QueryKeys(textfold.String(word)))
		if err != nil {
			t.Fatal(err)
		}
		in := func(j int) bool { return set[j/64]&(1<<uint(j%64)) != 0 }
		for g := range s.groups {
			for j := s.groups[g]; j < s.groupEnd(g); j++ {
				if in(j) != in(s.groups[g]) {
					t.Fatalf("%s: part %d and the first of its group differ", word, j)
				}
			}
		}
		n := 0
		for d := range dirs {
			for k, ref := range dirs[d].parts {
				j := dirs[d].first + k
				data, err := os.ReadFile(filepath.Join(root, "案件", relOf(dirs, d), format.PartName(ref.ID)))
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(data, []byte(textfold.String(word))) {
					held++
					if !in(j) {
						t.Errorf("%s: part %d holds it but is not a candidate", word, j)
					}
				}
				if in(j) {
					n++
				}
			}
		}
		narrowed = narrowed || n < len(s.parts)/2
	}
	if !narrowed || held == 0 {
		t.Errorf("narrowed %v, parts holding the words %d: the corpus does not test groups", narrowed, held)
	}
}
