package content_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/workspace"
)

func TestFileName(t *testing.T) {
	tests := []struct{ place, file string }{
		{"ページ003", "page_003.tsv"},
		{"ページ1204", "page_1204.tsv"},
		{"ページ003[埋め込み2]", "page_003[embed2].tsv"},
		{"スライド002（非表示）[図形]", "slide_002_hidden[shape].tsv"},
		{"スライド007_ノート", "slide_007_notes.tsv"},
		{"スライド001[コメント]", "slide_001[comment].tsv"},
		{"ページ003[フォーム]", "page_003[form].tsv"}, // a PDF page's form fields (issue 33)
		{"2024_上期", "2024%5F上期.tsv"},
		{"記号<>", "記号%3C%3E.tsv"},
		{"売上[図形]", "売上[shape].tsv"},
		{"見積[ヘッダー・フッター]", "見積[header_footer].tsv"},
		{"ヘッダー・フッター", "header_footer.tsv"},
		{"脚注", "doc_footnotes.tsv"},
		{"文書[コメント]", "doc_whole[comment].tsv"},
		{"本文", "doc_body.tsv"},
		{"100%", "100%25.tsv"},
		{"a[埋め込み01]", "a[埋め込み01].tsv"},
		// Windows device names, escaped on every OS (issue 14).
		{"CON", "%43ON.tsv"},
		{"con", "%63on.tsv"},
		{"Prn", "%50rn.tsv"},
		{"prn", "%70rn.tsv"},
		{"AUX.2024", "%41UX.2024.tsv"},
		{"aux", "%61ux.tsv"},
		{"NUL ", "%4EUL .tsv"},
		{"nul", "%6Eul.tsv"},
		{"COM1", "%43OM1.tsv"},
		{"lpt9", "%6Cpt9.tsv"},
		{"LPT3.old", "%4CPT3.old.tsv"},
		{"COM¹", "%43OM¹.tsv"},
		{"CON[図形]", "CON[shape].tsv"},
		{"CONSOLE", "CONSOLE.tsv"},
		{"COM0", "COM0.tsv"},
		{"LPT10", "LPT10.tsv"},
		{"%43ON", "%2543ON.tsv"},
		{"x%4E", "x%254E.tsv"},
		// The empty place (a nameless sheet of a damaged workbook).
		{"", ".tsv"},
		{"[図形]", "[shape].tsv"},
		// A hidden sheet read on request (issue 31) and a visible sheet
		// named like its label: two files.
		{"原価[非表示]", "原価[非表示].tsv"},
		{"原価[非表示][図形]", "原価[非表示][shape].tsv"},
		{"原価[非表示][ヘッダー・フッター]", "原価[非表示][header_footer].tsv"},
		{"原価（非表示）", "原価（非表示）.tsv"},
	}
	for _, tt := range tests {
		t.Run(tt.place, func(t *testing.T) {
			got, err := content.FileName(tt.place)
			if err != nil || got != tt.file {
				t.Fatalf("FileName(%q) = %q, %v, want %q", tt.place, got, err, tt.file)
			}
			back, ok := content.PlaceName(got)
			if !ok || back != tt.place {
				t.Fatalf("PlaceName(%q) = %q, %v, want %q", got, back, ok, tt.place)
			}
		})
	}
}

// TestFileNameNeverReserved: no place name gives a store name that Windows
// reads as a device.
func TestFileNameNeverReserved(t *testing.T) {
	for _, dev := range []string{"CON", "PRN", "AUX", "NUL", "COM5", "LPT1", "com²"} {
		for _, place := range []string{dev, dev + ".x", dev + " ", dev + "[コメント]", dev + "[埋め込み3]"} {
			name, err := content.FileName(place)
			if err != nil || workspace.IsReservedName(name) {
				t.Errorf("FileName(%q) = %q, %v: a reserved name", place, name, err)
			}
			if back, ok := content.PlaceName(name); !ok || back != place {
				t.Errorf("PlaceName(%q) = %q, %v, want %q", name, back, ok, place)
			}
		}
	}
}

func TestFileNameTooLong(t *testing.T) {
	long := ""
	for i := 0; i < 260; i++ {
		long += "あ"
	}
	if _, err := content.FileName(long); err == nil {
		t.Fatal("FileName(260 chars) succeeded, want error")
	}
}

func TestPlaceNameRejects(t *testing.T) {
	for _, f := range []string{"x.txt", "a_b.tsv", "tsv", "a.tsv.x"} {
		if p, ok := content.PlaceName(f); ok {
			t.Errorf("PlaceName(%q) = %q, want not a place", f, p)
		}
	}
}

// FuzzPlaceName: every place name an extractor can make (valid UTF-8,
// brackets only in a trailing object kind: reference/extraction.md §2.2)
// that FileName stores maps back to itself through PlaceName, and the
// stored name is never a Windows device name.
func FuzzPlaceName(f *testing.F) {
	for _, s := range []string{"売上", "ページ003[図形]", "a%5Fb", "%ZZ", "", "[図形]", "CON", "x%43", "スライド002（非表示）[埋め込み3]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, place string) {
		if base, _ := content.SplitKind(place); !utf8.ValidString(place) || strings.ContainsAny(base, "[]") {
			return
		}
		name, err := content.FileName(place)
		if err != nil {
			var ne *content.NameError
			if !errors.As(err, &ne) {
				t.Fatalf("FileName(%q): %v, not a NameError", place, err)
			}
			return
		}
		if workspace.IsReservedName(name) {
			t.Fatalf("FileName(%q) = %q: a Windows device name", place, name)
		}
		back, ok := content.PlaceName(name)
		if !ok || back != place {
			t.Fatalf("PlaceName(FileName(%q) = %q) = %q, %v: not the place", place, name, back, ok)
		}
	})
}

// TestEstimatePageNames: an estimated Word page (ページNNN（目安）) has
// its own English file name and reads back.
func TestEstimatePageNames(t *testing.T) {
	for place, file := range map[string]string{
		"ページ003（目安）":        "page_003_estimate.tsv",
		"ページ012（目安）[図形]":    "page_012_estimate[shape].tsv",
		"ページ001（目安）[埋め込み2]": "page_001_estimate[embed2].tsv",
	} {
		got, err := content.FileName(place)
		if err != nil || got != file {
			t.Errorf("FileName(%q) = %q, %v; want %q", place, got, err, file)
		}
		if back, ok := content.PlaceName(file); !ok || back != place {
			t.Errorf("PlaceName(%q) = %q, %v; want %q", file, back, ok, place)
		}
	}
}
