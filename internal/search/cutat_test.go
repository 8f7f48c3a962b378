package search_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/search"
)

// TestIssue32CutAtMessage: a search capped on a file-name hit names the
// file alone, never a blank place (`（営業\a.xlsx の  まで検索しました）`).
func TestIssue32CutAtMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   search.Stats
		want string
	}{
		{"place", search.Stats{Truncated: true, CutAt: `営業\a.xlsx`, CutLabel: "Sheet1"}, `（営業\a.xlsx の Sheet1 まで検索しました）`},
		{"file-name hit", search.Stats{Truncated: true, CutAt: `営業\a.xlsx`}, `（営業\a.xlsx まで検索しました）`},
		{"not capped", search.Stats{CutAt: `営業\a.xlsx`, CutLabel: "Sheet1"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := search.CutAtMessage(tc.st); got != tc.want {
				t.Errorf("CutAtMessage(%+v) = %q, want %q", tc.st, got, tc.want)
			}
		})
	}
}
