package ingestlist_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

func TestStates(t *testing.T) {
	tests := []struct {
		s     ingestlist.State
		value string
		known bool
	}{
		{ingestlist.Pending, "未取り込み", true},
		{ingestlist.Done, "済", true},
		{ingestlist.Failed, "失敗", true},
		{"完了", "完了", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if string(tt.s) != tt.value || tt.s.Known() != tt.known {
			t.Errorf("State %q: Known() = %v, want %q, %v", tt.s, tt.s.Known(), tt.value, tt.known)
		}
	}
}

func TestRowMethods(t *testing.T) {
	tests := []struct {
		name    string
		row     ingestlist.Row
		key     string
		index   string
		version int
		failed  bool
	}{
		{"done", ingestlist.Row{RelPath: `営業\2024\a.xlsx`, State: ingestlist.Done, Version: 4},
			`営業\2024\A.XLSX`, "営業", 4, false},
		{"empty version", ingestlist.Row{RelPath: `Sales\b.Doc`, State: ingestlist.Done},
			`SALES\B.DOC`, "Sales", 1, false},
		{"failed", ingestlist.Row{RelPath: `x\y`, State: ingestlist.Failed},
			`X\Y`, "x", 1, true},
		{"failed with error", ingestlist.Row{RelPath: `x\y`, State: ingestlist.Failed, Error: "e"},
			`X\Y`, "x", 1, true},
		{"pending", ingestlist.Row{RelPath: `x\y`, State: ingestlist.Pending},
			`X\Y`, "x", 1, false},
		{"postponed", ingestlist.Row{RelPath: `x\y`, State: ingestlist.Pending, Error: "PowerPoint を使っています"},
			`X\Y`, "x", 1, true},
		{"done with error", ingestlist.Row{RelPath: `x\y`, State: ingestlist.Done, Error: "e"},
			`X\Y`, "x", 1, false},
		{"no separator", ingestlist.Row{RelPath: `x`}, `X`, "x", 1, false},
		{"full-width letters fold", ingestlist.Row{RelPath: `ａ\ｂ`}, `Ａ\Ｂ`, "ａ", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.row
			if r.Key() != tt.key || r.IndexName() != tt.index || r.ExtractVersion() != tt.version || r.Failed() != tt.failed {
				t.Errorf("Row %+v: Key %q IndexName %q ExtractVersion %d Failed %v, want %q %q %d %v",
					r, r.Key(), r.IndexName(), r.ExtractVersion(), r.Failed(), tt.key, tt.index, tt.version, tt.failed)
			}
		})
	}
}

func TestFormatFileTime(t *testing.T) {
	saved := time.Local
	time.Local = time.FixedZone("JST", 9*60*60)
	t.Cleanup(func() { time.Local = saved })
	tests := []struct {
		in   time.Time
		want string
	}{
		{time.Date(2025, 1, 10, 12, 34, 56, 999999999, time.Local), "2025/01/10 12:34:56"},
		{time.Date(2025, 1, 10, 3, 34, 56, 0, time.UTC), "2025/01/10 12:34:56"},
		{time.Date(2024, 12, 31, 23, 59, 59, 500000000, time.UTC), "2025/01/01 08:59:59"},
		{time.Date(999, 2, 3, 4, 5, 6, 0, time.Local), "0999/02/03 04:05:06"},
	}
	for _, tt := range tests {
		if got := ingestlist.FormatFileTime(tt.in); got != tt.want {
			t.Errorf("FormatFileTime(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCleanError(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"開けません", "開けません"},
		{"a\tb\r\nc\nd\re", "a b  c d e"},
		{"bell\a nul\x00 del\x7f", "bell  nul  del "},
		{"c1\u0085x", "c1 x"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"行\u2028区切り", "行\u2028区切り"},
	}
	for _, tt := range tests {
		if got := ingestlist.CleanError(tt.in); got != tt.want {
			t.Errorf("CleanError(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidRelPath(t *testing.T) {
	tests := []struct {
		rel  string
		want bool
	}{
		{`営業\a.xlsx`, true},
		{`営業\2024\見積\A社.xlsx`, true},
		{`aux.backup\a.xlsx`, true},
		{`AUX\CON.txt`, true},
		{`営業\ 先頭.txt`, true},
		{`営業\` + strings.Repeat("a", 255), true},
		{`営業`, false},
		{`営業\`, false},
		{`\営業\a`, false},
		{`営業\\a`, false},
		{`営業\a\`, false},
		{`..\a`, false},
		{`.\a`, false},
		{`営業\..`, false},
		{`営業\.\a`, false},
		{`営業\a:b`, false},
		{`a:b\c`, false},
		{`営業\a/b`, false},
		{`営業\a` + "\x01", false},
		{`営業\末尾.`, false},
		{`営業\末尾 `, false},
		{`名前.\a`, false},
		{`営業\` + strings.Repeat("a", 256), false},
		{"営業\\\xff", false},
		{``, false},
	}
	for _, tt := range tests {
		if got := ingestlist.ValidRelPath(tt.rel); got != tt.want {
			t.Errorf("ValidRelPath(%q) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}

func TestRelPathHelpers(t *testing.T) {
	under := filepath.Join("2024", "見積", "A社.xlsx")
	rel := ingestlist.MakeRelPath("営業", under)
	if rel != `営業\2024\見積\A社.xlsx` {
		t.Errorf("MakeRelPath(営業, %q) = %q", under, rel)
	}
	if got, want := ingestlist.LocalPath(rel), filepath.Join("営業", under); got != want {
		t.Errorf("LocalPath(%q) = %q, want %q", rel, got, want)
	}
	if index, rest := ingestlist.SplitRelPath(rel); index != "営業" || rest != `2024\見積\A社.xlsx` {
		t.Errorf("SplitRelPath(%q) = %q, %q", rel, index, rest)
	}
	if index, rest := ingestlist.SplitRelPath("営業"); index != "営業" || rest != "" {
		t.Errorf("SplitRelPath(営業) = %q, %q", index, rest)
	}
}
