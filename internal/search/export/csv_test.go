package export_test

import (
	"bytes"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

// TestIssue15CSVFormulas: no cell of search_results.csv starts a formula
// when Excel opens it (OWASP: a leading ').
func TestIssue15CSVFormulas(t *testing.T) {
	hits := []search.Hit{
		{Index: "営業", RelPath: `a.xlsx`, FileKind: "excel", Place: "S", Kind: "セル", Row: 1, Cell: "A1",
			Text: "=HYPERLINK(\"http://x\",\"y\")\t-5\t\"@SUM(1)\u2028x\"\t+cmd|' /C calc'!A0"},
		{Index: "営業", RelPath: `b.docx`, FileKind: "word", Place: "ページ001", Kind: "本文", Row: 2,
			Text: "=cmd|' /C calc'!A0\t-1+1\tりんご"},
		{Index: "=営業", RelPath: `c.txt`, FileKind: "text", Place: "本文", Kind: "本文", Row: 3, Text: "\u2028=1+1"},
	}
	var b bytes.Buffer
	if err := export.WriteCSV(&b, hits, nil); err != nil {
		t.Fatal(err)
	}
	want := "\ufeffファイル名,場所,種別,行,セル,更新日時,サイズ,状態,A,B,C,D\r\n" +
		"営業\\a.xlsx,[シート]S,セル,1,A1,,,,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-5,\"'@SUM(1)\r\nx\",'+cmd|' /C calc'!A0\r\n" +
		"営業\\b.docx,1 ページ,本文,2,,,,,'=cmd|' /C calc'!A0,'-1+1,りんご\r\n" +
		"'=営業\\c.txt,,本文,3,,,,,\"\r\n=1+1\"\r\n"
	if b.String() != want {
		t.Errorf("WriteCSV =\n%q\nwant\n%q", b.String(), want)
	}
}
