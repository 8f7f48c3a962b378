package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestOpenDocumentAndRTF indexes the OpenDocument and RTF files
// LibreOffice wrote (internal/extract/odf/testdata/gen.sh) and finds each
// planted token at its page, sheet and cell, or slide.
func TestOpenDocumentAndRTF(t *testing.T) {
	f := newFixture(t)
	for src, dst := range map[string]string{
		"../../internal/extract/odf/testdata/text.odt":    "文書/見積.odt",
		"../../internal/extract/odf/testdata/sheet.ods":   "表/売上.ods",
		"../../internal/extract/odf/testdata/slides.odp":  "発表/報告.odp",
		"../../internal/extract/odf/testdata/sheet.fods":  "表/平文.fods",
		"../../internal/extract/rtf/testdata/text.rtf":    "文書/古い.rtf",
		"../../internal/extract/odf/testdata/slides.fodp": "発表/平文.fodp",
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		f.write(dst, string(b))
	}
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	for _, rel := range []string{"文書/見積.odt", "表/売上.ods", "発表/報告.odp", "表/平文.fods", "文書/古い.rtf", "発表/平文.fodp"} {
		if r := f.row(filepath.FromSlash(rel)); r.State != ingestlist.Done {
			t.Errorf("%s: %+v", rel, r)
		}
	}
	for _, tc := range []struct {
		token string
		want  []string // "<path> <label> <kind>" of every hit
	}{
		{"見出し丙", []string{"文書/古い.rtf 1 ページ 本文", "文書/見積.odt 1 ページ 本文"}},
		{"第2ページ辛", []string{"文書/古い.rtf 2 ページ 本文", "文書/見積.odt 2 ページ 本文"}},
		{"テキストボックス壬", []string{"文書/古い.rtf 2 ページ 図形", "文書/見積.odt 2 ページ 図形"}},
		{"コメント戊", []string{"文書/古い.rtf 1 ページ コメント", "文書/見積.odt 1 ページ コメント"}},
		{"脚注丁", []string{"文書/古い.rtf 脚注 本文", "文書/見積.odt 脚注 本文"}},
		{"1,234,567", []string{"表/売上.ods [シート]売上!B4 セル", "表/平文.fods [シート]売上!B4 セル"}},
		{"セルのコメント乙", []string{"表/売上.ods [シート]売上!D4 コメント"}},
		{"二枚目己", []string{"表/売上.ods [シート]2024_上期!B1 セル", "表/平文.fods [シート]2024_上期!B1 セル"}},
		{"非表示シート戊", nil},
		{"強調して話す丙", []string{"発表/報告.odp スライド 1 ノート", "発表/平文.fodp スライド 1 ノート"}},
		{"売上推移グラフ庚", []string{"発表/報告.odp スライド 2 図形", "発表/平文.fodp スライド 2 図形"}},
		{"非表示のスライド丁", []string{"発表/報告.odp スライド 3（非表示） 本文", "発表/平文.fodp スライド 3（非表示） 本文"}},
	} {
		out, errOut, code := f.run("search", tc.token, "--json")
		if code != 0 && !(tc.want == nil && code == 1) {
			t.Fatalf("search %s: exit %d\n%s%s", tc.token, code, out, errOut)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var h struct{ Path, Label, Kind string }
			if line == "" || json.Unmarshal([]byte(line), &h) != nil || h.Path == "" {
				continue
			}
			got = append(got, strings.ReplaceAll(h.Path, `\`, "/")+" "+h.Label+" "+h.Kind)
		}
		if strings.Join(sortedCopy(got), "|") != strings.Join(sortedCopy(tc.want), "|") {
			t.Errorf("search %s:\n got %q\nwant %q", tc.token, got, tc.want)
		}
	}
	// --kind filters by the Office counterpart.
	out := f.mustRun("search", "二枚目己", "--kind", "excel", "--json")
	if !strings.Contains(out, "売上.ods") {
		t.Errorf("--kind excel lacks the .ods hit:\n%s", out)
	}
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}
