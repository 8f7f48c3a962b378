package export_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

// TestExportReference writes the reference's example (search.md §8) and
// compares it byte for byte with the example's own bytes
// (testdata/TestExportReference/search_md_8.txt, made from the reference's
// text, see the README beside it; -update does not touch it).
func TestExportReference(t *testing.T) {
	mod := time.Date(2024, 4, 1, 9, 30, 0, 0, time.Local)
	hits := []search.Hit{
		{Index: "営業", RelPath: `2024\見積.xlsx`, FileKind: "excel", Place: "明細", Kind: "セル", Row: 4, Text: "\t\tりんご\t10", Modified: mod, Size: 100},
		{Index: "営業", RelPath: `報告.docx`, FileKind: "word", Place: "ページ003（目安）", Kind: "本文", Row: 2, Text: "りんごの出荷が増えた"},
		{Index: "営業", RelPath: `メモ.txt`, FileKind: "text", Place: "本文", Kind: "本文", Row: 12, Text: "りんご 10 箱"},
	}
	want, err := os.ReadFile(filepath.Join("testdata", "TestExportReference", "search_md_8.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		path   string
		format string
	}{
		{"Write", "", ""},
		{"txt by extension", "out.txt", ""},
		{"other extension", "search_results", ""},
		{"txt by --format", "out.csv", "txt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if tt.name == "Write" {
				export.Write(&b, "りんご", hits)
			} else {
				f, ok := export.FormatFor(tt.path, tt.format)
				if !ok || f != export.FormatText {
					t.Fatalf("FormatFor(%q, %q) = %q, %v", tt.path, tt.format, f, ok)
				}
				export.WriteFormat(&b, f, "りんご", hits, func(search.Hit) search.Freshness { return search.Changed }, false)
			}
			if b.String() != string(want) {
				t.Fatalf("export =\n%q\nwant (search.md §8)\n%q", b.String(), want)
			}
		})
	}
}

// TestExportFormats: the opt-in trailing columns of the text export, the
// CSV's and the JSON lines' time and freshness, and the format picked by
// extension or --format (issue 31).
func TestExportFormats(t *testing.T) {
	mod := time.Date(2024, 4, 1, 9, 30, 0, 0, time.Local)
	hits := []search.Hit{
		{Index: "営業", RelPath: `2024\見積.xlsx`, FileKind: "excel", Place: "明細", Kind: "セル", Row: 4, Cell: "C4", Text: "\t\tりんご\t10", Modified: mod, Size: 100, FullPath: `C:\共有\営業\2024\見積.xlsx`},
		{Index: "営業", RelPath: `メモ.txt`, FileKind: "text", Place: "本文", Kind: "本文", Row: 12, Text: "りんご 10 箱"},
		{Index: "営業", RelPath: `りんご.txt`, FileKind: "text", Kind: search.KindFileName, Text: `りんご.txt`, Modified: mod, Size: 5},
	}
	fresh := func(h search.Hit) search.Freshness {
		switch h.RelPath {
		case `2024\見積.xlsx`:
			return search.Changed
		case `りんご.txt`:
			return search.Deleted
		}
		return search.Fresh
	}
	m := export.FormatModified(mod)
	for _, tt := range []struct {
		name, path, format string
		extra              bool
		want               string
	}{
		{"txt with trailing columns", "a.TXT", "", true,
			"\uFEFF【検索文字列\u3000りんご】 3 件\r\n" +
				"ファイル名\t場所\t種別\t行\tA\tB\tC\tD\t更新日時\t状態\r\n" +
				"営業\\2024\\見積.xlsx\t[シート]明細\tセル\t4\t\t\tりんご\t10\t" + m + "\tインデックス作成後に変更されています\r\n" +
				"営業\\メモ.txt\t\t本文\t12\tりんご 10 箱\t\t\t\t\t\r\n" +
				"営業\\りんご.txt\t\tファイル名\t\tりんご.txt\t\t\t\t" + m + "\t削除されています\r\n\r\n"},
		{"csv by extension", "x/結果.csv", "", false,
			"\uFEFFファイル名,場所,種別,行,セル,更新日時,サイズ,状態,A,B,C,D\r\n" +
				"営業\\2024\\見積.xlsx,[シート]明細,セル,4,C4," + m + ",100,インデックス作成後に変更されています,,,りんご,10\r\n" +
				"営業\\メモ.txt,,本文,12,,,,,りんご 10 箱\r\n" +
				"営業\\りんご.txt,,ファイル名,,," + m + ",5,削除されています,りんご.txt\r\n"},
		{"json by --format", "out.txt", "json", false, ""},
		{"jsonl by extension", "out.jsonl", "", false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := export.FormatFor(tt.path, tt.format)
			if !ok {
				t.Fatalf("FormatFor(%q, %q) refused", tt.path, tt.format)
			}
			var b bytes.Buffer
			if err := export.WriteFormat(&b, f, "りんご", hits, fresh, tt.extra); err != nil {
				t.Fatal(err)
			}
			if f == export.FormatJSON {
				lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
				if len(lines) != len(hits) {
					t.Fatalf("%d JSON lines, want %d:\n%s", len(lines), len(hits), b.String())
				}
				var first map[string]any
				if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
					t.Fatal(err)
				}
				for k, v := range map[string]any{"fullPath": `C:\共有\営業\2024\見積.xlsx`, "freshness": "changed", "placeLabel": "[シート]明細", "cell": "C4", "size": 100.0} {
					if first[k] != v {
						t.Errorf("JSON %s = %v, want %v", k, first[k], v)
					}
				}
				if first["modified"] == nil || strings.Contains(lines[1], "freshness") || !strings.Contains(lines[2], `"freshness":"deleted"`) {
					t.Errorf("JSON lines:\n%s", b.String())
				}
				return
			}
			if b.String() != tt.want {
				t.Fatalf("export =\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
	if _, ok := export.FormatFor("a.txt", "xml"); ok {
		t.Error("FormatFor accepted --format xml")
	}
}
