package search_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/testutil"
)

func TestWriteExport(t *testing.T) {
	root, ix := buildCorpus(t, knownCorpus)
	for _, tt := range []struct {
		name  string
		words []string
		opts  search.Options
	}{
		{"ringo", []string{"りんご"}, search.Options{}},
		{"quoted", []string{"1"}, search.Options{}},
		{"none", []string{"存在しない語"}, search.Options{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q, err := search.Parse(tt.words, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			hits, _, err := runQuery(t, root, ix, tt.words, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := search.WriteExport(&b, q.Text, hits); err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, testutil.GoldenPath(t, tt.name), b.Bytes())
		})
	}
}

// TestExportReference writes the reference's example (search.md §8) with
// the place labels fumibako uses.
func TestExportReference(t *testing.T) {
	mod := time.Date(2024, 4, 1, 9, 30, 0, 0, time.Local)
	hits := []search.Hit{
		{Index: "営業", RelPath: `2024\見積.xlsx`, FileKind: "excel", Place: "明細", Kind: "セル", Row: 4, Text: "\t\tりんご\t10", Modified: mod},
		{Index: "営業", RelPath: `報告.docx`, FileKind: "word", Place: "ページ003", Kind: "本文", Row: 2, Text: "りんごの出荷が増えた"},
		{Index: "営業", RelPath: `メモ.txt`, FileKind: "text", Place: "本文", Kind: "本文", Row: 12, Text: "りんご 10 箱"},
		{Index: "営業", RelPath: `2024\りんご.txt`, FileKind: "text", Kind: search.KindFileName, Text: `2024\りんご.txt`, Matches: [][2]int{{5, 14}}},
	}
	var b bytes.Buffer
	search.WriteExport(&b, "りんご", hits)
	want := "\uFEFF【検索文字列\u3000りんご】 4 件\r\n" +
		"ファイル名\t場所\t種別\t行\t更新日時\tA\tB\tC\tD\r\n" +
		"営業\\2024\\見積.xlsx\t[シート]明細\tセル\t4\t" + search.FormatModified(mod) + "\t\t\tりんご\t10\r\n" +
		"営業\\報告.docx\t3 ページ\t本文\t2\t\tりんごの出荷が増えた\r\n" +
		"営業\\メモ.txt\t\t本文\t12\t\tりんご 10 箱\r\n" +
		"営業\\2024\\りんご.txt\t\tファイル名\t\t\t2024\\りんご.txt\r\n" +
		"\r\n"
	if b.String() != want {
		t.Fatalf("WriteExport =\n%q\nwant\n%q", b.String(), want)
	}
}
