package export_test

import (
	"bytes"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

func TestSafeCell(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"りんご", "りんご"},
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"},
		{"@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		{"-", "'-"},
		{"+", "'+"},
		{"-1+2", "'-1+2"},
		{"-A1", "'-A1"},
		{"- 箇条書き", "'- 箇条書き"},
		{"-5", "-5"},
		{"+81", "+81"},
		{"-1,234.5", "-1,234.5"},
		{"-12%", "-12%"},
		{"-0.5", "-0.5"},
		{"-1,23", "'-1,23"},
		{"-1.", "'-1."},
		{"-.5", "'-.5"},
		{"a=1", "a=1"},
		{"'=1", "'=1"},
	} {
		if got := export.SafeCell(tt.in); got != tt.want {
			t.Errorf("SafeCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestIssue15ExportFormulas: document text that would be a formula in
// Excel is text in search_results.txt; everything else keeps the
// reference's bytes.
func TestIssue15ExportFormulas(t *testing.T) {
	hits := []search.Hit{
		{Index: "営業", RelPath: `a.xlsx`, FileKind: "excel", Place: "S", Kind: "セル", Row: 1, Text: "=HYPERLINK(\"http://x\")\t-5\t\"@SUM(1)\u2028x\"\t\"ok\"\tりんご"},
		{Index: "営業", RelPath: `b.docx`, FileKind: "word", Place: "ページ001", Kind: "本文", Row: 2, Text: "=cmd|' /C calc'!A0\t+1+1\t\"q\"\tりんご"},
		{Index: "-営業", RelPath: `c.txt`, FileKind: "text", Place: "本文", Kind: "本文", Row: 3, Text: "りんご"},
	}
	var b bytes.Buffer
	if err := export.Write(&b, "りんご", hits); err != nil {
		t.Fatal(err)
	}
	want := "\uFEFF【検索文字列\u3000りんご】 3 件\r\n" +
		"ファイル名\t場所\t種別\t行\tA\tB\tC\tD\tE\r\n" +
		"営業\\a.xlsx\t[シート]S\tセル\t1\t'=HYPERLINK(\"http://x\")\t-5\t\"'@SUM(1)\nx\"\t\"ok\"\tりんご\r\n" +
		"営業\\b.docx\t1 ページ\t本文\t2\t'=cmd|' /C calc'!A0\t'+1+1\t\"\"\"q\"\"\"\tりんご\r\n" +
		"'-営業\\c.txt\t\t本文\t3\tりんご\r\n" +
		"\r\n"
	if b.String() != want {
		t.Errorf("WriteExport =\n%q\nwant\n%q", b.String(), want)
	}
}
