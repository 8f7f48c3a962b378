package embed_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// TestNativeEmbedsNumbering reads a sequence of objects of one .doc or
// .ppt as package embed does without any reader registered: an embedded
// workbook package and a Word package are read by embed's own readers and
// numbered in order; an object referenced again is read once; a broken
// package takes its number, leaves a gap and is logged; pictures and
// compound objects no linked format reads give nothing and take no number.
func TestNativeEmbedsNumbering(t *testing.T) {
	workbook := fixture.ZipBytes(t, fixture.XlsxParts([]string{`<t>品名</t>`, `<t>隠し</t>`},
		"表", "", `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>10</v></c><c r="C1" t="inlineStr"><is><t>在庫</t></is></c></row>`,
		"非表示", "hidden", `<row r="1"><c r="A1" t="s"><v>1</v></c></row>`)...)
	document := fixture.ZipBytes(t, fixture.DocxParts(fixture.WP("本文の段落"), nil)...)
	broken := append([]byte("PK\x03\x04"), make([]byte, 40)...)
	compound := fixture.CfbFile(t, map[string][]byte{"Workbook": {0x09, 0x08, 0, 0}})
	tests := []struct {
		key, label string
		data       []byte
	}{
		{"a", "表の埋め込み", workbook},
		{"a", "表の埋め込み（二度目）", workbook},
		{"b", "壊れた埋め込み", broken},
		{"c", "画像", []byte("\x89PNG\r\n\x1a\n")},
		{"d", "読む形式のない複合ファイル", compound},
		{"e", "文書の埋め込み", document},
	}
	e := &embed.NativeEmbeds{Ctx: context.Background(), Lim: extract.Options{}.ResolvedLimits(), Read: new(int64)}
	var got []extract.Place
	for _, tt := range tests {
		p, err := e.Place(nil, "", tt.data, tt.key, tt.label, "ページ001")
		if err != nil {
			t.Fatalf("%s: %v", tt.label, err)
		}
		if p != nil {
			got = append(got, *p)
		}
	}
	want := []extract.Place{
		{Name: "ページ001[埋め込み1]", Lines: []string{"品名\t在庫"}},
		{Name: "ページ001[埋め込み3]", Lines: []string{"本文の段落"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("places %q, want %q", got, want)
	}
	if wantLog := []string{"    埋め込みを読み取れませんでした: 壊れた埋め込み"}; !reflect.DeepEqual(e.Log, wantLog) {
		t.Errorf("log %q, want %q", e.Log, wantLog)
	}
}
