package search

import "testing"

// TestIssue36RepeatsMerged: a word or an exclusion given twice is compiled
// and matched once; the others keep their positions for error messages.
func TestIssue36RepeatsMerged(t *testing.T) {
	tests := []struct {
		name     string
		words    []string
		pos, neg int
	}{
		{"word twice", []string{"見積", "見積"}, 1, 0},
		{"exclusion twice", []string{"見積", "-下書き", "-下書き"}, 1, 1},
		{"word and exclusion differ", []string{"a", "-a", `\-a`}, 2, 1},
		{"case differs", []string{"Apple", "apple"}, 2, 0},
		{"2,000 times", repeat("a", 2000), 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Parse(tt.words, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(q.pos) != tt.pos || len(q.neg) != tt.neg {
				t.Errorf("Parse(%q): %d words, %d exclusions; want %d, %d", tt.words[:min(len(tt.words), 4)], len(q.pos), len(q.neg), tt.pos, tt.neg)
			}
		})
	}
	// A repeat blanked keeps the positions: the bad regex is word 3.
	_, err := Parse([]string{"a", "a", "(b"}, Options{Regex: true})
	if qe, ok := err.(*QueryError); !ok || qe.Word != 2 {
		t.Errorf("Parse = %v, want a QueryError on word 2", err)
	}
}

func repeat(w string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = w
	}
	return out
}
