package order_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/order"
)

// TestNatural: digits compare by value (ASCII and full-width alike),
// other characters ignoring case; the order is total.
func TestNatural(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int // sign
	}{
		{"第2回", "第10回", -1},
		{"第10回", "第2回", 1},
		{"第２回", "第10回", -1},
		{"第２回", "第2回", 1},       // equal in value: by bytes
		{"file007", "file7", 1}, // more leading zeros after
		{"ABC", "abd", -1},
		{"a", "a1", -1},
		{"見積", "見積", 0},
		{"v1.10", "v1.9", 1},
	} {
		got := order.Natural(tt.a, tt.b)
		if got < 0 {
			got = -1
		} else if got > 0 {
			got = 1
		}
		if got != tt.want {
			t.Errorf("Natural(%q, %q) = %d, want sign %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestFiles: each order keeps a file's hits together and in their
// search order; ties and the default fall back to the path order, a
// folder's own files before its sub-folders'.
func TestFiles(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2024, 4, d, 9, 0, 0, 0, time.UTC) }
	hits := []search.Hit{
		{Index: "営業", RelPath: `第10回\a.txt`, Row: 1, Modified: day(3)},
		{Index: "営業", RelPath: `第2回\a.txt`, Row: 1, Modified: day(1)},
		{Index: "営業", RelPath: `第2回\a.txt`, Row: 5, Modified: day(1)},
		{Index: "営業", RelPath: `z.txt`, Row: 2},
		{Index: "営業", RelPath: `第2回\b.txt`, Row: 1, Modified: day(2)},
		{Index: "営業", RelPath: `第2回\b.txt`, Row: 2, Modified: day(2)},
		{Index: "営業", RelPath: `第2回\b.txt`, Row: 3, Modified: day(2)},
	}
	show := func(hs []search.Hit) string {
		var b []string
		for _, h := range hs {
			b = append(b, h.RelPath+":"+string(rune('0'+h.Row)))
		}
		return strings.Join(b, " ")
	}
	for _, tt := range []struct {
		by, want string
	}{
		{"", `z.txt:2 第2回\a.txt:1 第2回\a.txt:5 第2回\b.txt:1 第2回\b.txt:2 第2回\b.txt:3 第10回\a.txt:1`},
		{order.ByPath, `z.txt:2 第2回\a.txt:1 第2回\a.txt:5 第2回\b.txt:1 第2回\b.txt:2 第2回\b.txt:3 第10回\a.txt:1`},
		{order.ByDate, `第10回\a.txt:1 第2回\b.txt:1 第2回\b.txt:2 第2回\b.txt:3 第2回\a.txt:1 第2回\a.txt:5 z.txt:2`},
		{order.ByHits, `第2回\b.txt:1 第2回\b.txt:2 第2回\b.txt:3 第2回\a.txt:1 第2回\a.txt:5 z.txt:2 第10回\a.txt:1`},
	} {
		hs := append([]search.Hit(nil), hits...)
		order.Files(hs, tt.by)
		if got := show(hs); got != tt.want {
			t.Errorf("Files(%q) =\n%s\nwant\n%s", tt.by, got, tt.want)
		}
	}
	for _, s := range []string{"", "path", "date", "hits"} {
		if !order.Valid(s) {
			t.Errorf("Valid(%q) = false", s)
		}
	}
	if order.Valid("size") {
		t.Error(`Valid("size") = true`)
	}
}
