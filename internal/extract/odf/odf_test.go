package odf_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	_ "github.com/fumibako/fumibako/internal/extract/odf"
	_ "github.com/fumibako/fumibako/internal/extract/rtf"
)

func read(t testing.TB, path, name string) (*extract.Result, error) {
	t.Helper()
	return extract.Extract(context.Background(), path, name, extract.Options{Scratch: t.TempDir()})
}

func places(res *extract.Result) map[string][]string {
	m := map[string][]string{}
	for _, p := range res.Places {
		m[p.Name] = p.Lines
	}
	return m
}

func names(res *extract.Result) []string {
	var out []string
	for _, p := range res.Places {
		out = append(out, p.Name)
	}
	return out
}

var (
	textPlaces = map[string][]string{
		"ページ001":       {"御見積書\u3000見出し丙", "下記の通りお見積り申し上げます。", "詳細は弊社サイトを ご覧ください。", "品名\t数量\t備考", "りんご己 青森産\t10", "箇条書き庚"},
		"ページ001[コメント]": {"コメント戊を確認"},
		"ページ002":       {"第2ページ辛 タブの後", "本文の続き"},
		"ページ002[図形]":   {"テキストボックス壬"},
		"ページ003":       {"第3ページ癸 改行の後"},
		"ヘッダー・フッター":    {"社外秘\u3000ヘッダー甲", "株式会社フッター乙"},
		"脚注":           {"脚注丁は税抜きです。"},
	}
	textOrder   = []string{"ページ001", "ページ001[コメント]", "ページ002", "ページ002[図形]", "ページ003", "ヘッダー・フッター", "脚注"}
	sheetRows   = []string{"品名\t金額", "", "", "\"りんご\u2028青森産\"\t1,234,567\t\t\"特\"\"A\"\"級\"", "\t\tC5の値丙"}
	sheetHF     = []string{"社外秘ヘッダー", "営業部", "フッター表計算"}
	slidePlaces = map[string][]string{
		"スライド001":       {"第1四半期の売上報告甲", "売上は前年比110%", "新規顧客\u300025社"},
		"スライド001_ノート":   {"発表者メモ：強調して話す丙"},
		"スライド001[コメント]": {"数字を再確認乙"},
		"スライド002":       {"地域戊\t売上\t備考", "東京\t120", "Text box: café"},
		// The chart: title, axis title, series names (LibreOffice kept
		// one of the source's two series).
		"スライド002[図形]":  {"売上推移グラフ庚 四半期 東日本辛"},
		"スライド003（非表示）": {"非表示のスライド丁"},
		"ヘッダー・フッター":    {"フッター己"},
	}
	slideOrder = []string{"スライド001", "スライド001_ノート", "スライド001[コメント]", "スライド002", "スライド002[図形]", "スライド003（非表示）", "ヘッダー・フッター"}
)

// TestLibreOfficeFixtures reads the files LibreOffice wrote (testdata/
// gen.sh) and checks every planted token at its page, sheet and cell, or
// slide.
func TestLibreOfficeFixtures(t *testing.T) {
	sheet := map[string][]string{
		"売上":                 sheetRows,
		"売上[図形]":             {"A1\t浮いた図形シート甲", "C5\tセルの図形丁"},
		"売上[コメント]":           {"D4\tセルのコメント乙"},
		"売上[ヘッダー・フッター]":      sheetHF,
		"2024_上期":            {"\t二枚目己"},
		"2024_上期[ヘッダー・フッター]": sheetHF,
	}
	sheetOrder := []string{"売上", "売上[図形]", "売上[コメント]", "売上[ヘッダー・フッター]", "2024_上期", "2024_上期[ヘッダー・フッター]"}
	// LibreOffice's flat export drops the cell comment and puts the cell's
	// shape into table:shapes.
	flat := map[string][]string{}
	for k, v := range sheet {
		flat[k] = v
	}
	delete(flat, "売上[コメント]")
	flatOrder := []string{"売上", "売上[図形]", "売上[ヘッダー・フッター]", "2024_上期", "2024_上期[ヘッダー・フッター]"}
	for _, tc := range []struct {
		file  string
		want  map[string][]string
		order []string
	}{
		{"text.odt", textPlaces, textOrder},
		{"text.fodt", textPlaces, textOrder},
		{"sheet.ods", sheet, sheetOrder},
		{"sheet.fods", flat, flatOrder},
		{"slides.odp", slidePlaces, slideOrder},
		{"slides.fodp", slidePlaces, slideOrder},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res, err := read(t, filepath.Join("testdata", tc.file), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			got := places(res)
			if tc.file == "sheet.fods" {
				// Where LibreOffice's flat export anchors the cell shape
				// decides its address; only its text is pinned.
				if s := got["売上[図形]"]; len(s) == 2 && strings.HasSuffix(s[1], "\tセルの図形丁") {
					got["売上[図形]"] = []string{s[0], "C5\tセルの図形丁"}
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("places\n got %q\nwant %q", got, tc.want)
			}
			if n := names(res); !reflect.DeepEqual(n, tc.order) {
				t.Errorf("order %q, want %q", n, tc.order)
			}
			for _, p := range res.Places {
				for _, l := range p.Lines {
					if strings.Contains(l, "非表示シート戊") {
						t.Errorf("hidden sheet read: %s %q", p.Name, l)
					}
				}
			}
		})
	}
}

// rezip copies an ODF package, replacing or adding parts.
func rezip(t testing.TB, src string, parts map[string]string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	done := map[string]bool{}
	for _, f := range zr.File {
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := parts[f.Name]; ok {
			w.Write([]byte(s))
			done[f.Name] = true
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(rc)
		rc.Close()
		w.Write(b.Bytes())
	}
	for name, s := range parts {
		if !done[name] && s != "" {
			w, _ := zw.Create(name)
			w.Write([]byte(s))
		}
	}
	zw.Close()
	return buf.Bytes()
}

const encryptedManifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="3000">
  <manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA">
   <manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAA"/>
   <manifest:start-key-generation manifest:start-key-generation-name="http://www.w3.org/2000/09/xmldsig#sha256" manifest:key-size="32"/>
   <manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAA"/>
  </manifest:encryption-data>
 </manifest:file-entry>
</manifest:manifest>`

// TestFailures pins the messages of encrypted, damaged and hostile files.
func TestFailures(t *testing.T) {
	odt := filepath.Join("testdata", "text.odt")
	orig, err := os.ReadFile(odt)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		// The manifest LibreOffice writes for a password-protected file
		// (encryption-data per entry); content.xml left as it is, since
		// the manifest alone decides.
		{"encrypted.odt", rezip(t, odt, map[string]string{"META-INF/manifest.xml": encryptedManifest}), extract.MsgPassword},
		{"cut.odt", orig[:len(orig)/2], extract.MsgCorrupt},
		{"nobody.odt", rezip(t, odt, map[string]string{"content.xml": `<a/>`}), extract.MsgCorrupt},
		{"dtd.odt", rezip(t, odt, map[string]string{"content.xml": `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>`}), extract.MsgCorrupt},
		// Issue 33: a bare DOCTYPE passes, entity declarations do not,
		// in the manifest as in content.xml.
		{"manifest-entity.odt", rezip(t, odt, map[string]string{"META-INF/manifest.xml": `<?xml version="1.0"?><!DOCTYPE manifest:manifest PUBLIC "-//OpenOffice.org//DTD Manifest 1.0//EN" "Manifest.dtd" [<!ENTITY a "b">]><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">&a;</manifest:manifest>`}), extract.MsgCorrupt},
		{"content-entity.odt", rezip(t, odt, map[string]string{"content.xml": `<?xml version="1.0"?><!DOCTYPE office:document-content SYSTEM "office.dtd" [<!ENTITY a SYSTEM "file:///etc/passwd">]><x>&a;</x>`}), extract.MsgCorrupt},
		{"deep.fodt", []byte(strings.Repeat("<a>", 2000) + strings.Repeat("</a>", 2000)), extract.MsgCorrupt},
		{"text.ods", []byte("plain text, no package"), extract.MsgCorrupt},
		{"bad.fods", []byte(`<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"><office:body>`), extract.MsgCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := read(t, fixture.WriteTemp(t, tc.name, tc.data), tc.name)
			var e *extract.Error
			if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, tc.msg) {
				t.Fatalf("got %v, %v; want %q", res, err, tc.msg)
			}
		})
	}
}

// TestBodyDecidesKind reads a presentation saved under a text name by the
// body it holds, and repeated rows and columns of a sheet as Excel's grid.
func TestBodyDecidesKind(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "slides.odp"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := read(t, fixture.WriteTemp(t, "renamed.odt", data), "renamed.odt")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res); !reflect.DeepEqual(got, slideOrder) {
		t.Errorf("places %q, want %q", got, slideOrder)
	}
	rtf, err := os.ReadFile(filepath.Join("..", "rtf", "testdata", "text.rtf"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = read(t, fixture.WriteTemp(t, "renamed.odt", rtf), "renamed.odt")
	if err != nil || !reflect.DeepEqual(names(res), textOrder) {
		t.Errorf("RTF as .odt: %v, %q", err, names(res))
	}
	res, err = read(t, fixture.WriteTemp(t, "renamed.rtf", data), "renamed.rtf")
	if err != nil || !reflect.DeepEqual(names(res), slideOrder) {
		t.Errorf("ODF as .rtf: %v, %q", err, names(res))
	}
	fods := `<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet><table:table table:name="S">
<table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="2"><text:p>x</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16384"/></table:table-row>
<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
<table:table-row><table:table-cell table:number-columns-repeated="16383"/><table:table-cell><text:p>last</text:p><text:p>col</text:p></table:table-cell><table:table-cell><text:p>beyond</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p>beyond row</text:p></table:table-cell></table:table-row>
</table:table></office:spreadsheet></office:body></office:document>`
	res, err = read(t, fixture.WriteTemp(t, "grid.fods", []byte(fods)), "grid.fods")
	if err != nil {
		t.Fatal(err)
	}
	p := places(res)["S"]
	// Column 16385 is past Excel's grid and dropped. The row of column
	// XFD is longer than extract.LineMaxRunes: it is stored as its pieces.
	last := extract.AppendLine(nil, strings.Repeat("\t", 16383)+"\"last\u2028col\"")
	if len(p) != 1048003+len(last) || p[0] != "x\tx" || p[1] != "x\tx" || !reflect.DeepEqual(p[1048002:1048002+len(last)], last) || p[len(p)-1] != "beyond row" {
		t.Fatalf("grid: %d lines, first %q", len(p), p[:2])
	}
}

func FuzzODF(f *testing.F) {
	seeds := map[string][]byte{}
	for _, name := range []string{"text.odt", "sheet.ods", "slides.odp", "text.fodt", "ooo2-manifest.odt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		seeds[name] = b
	}
	fixture.NativeFuzzSeeds(f, seeds)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"f.odt", "f.fods"} {
			res, err := read(t, fixture.WriteTemp(t, name, data), name)
			fixture.CheckNative(t, res, err)
		}
		// A spreadsheet with its hidden tables read too (issue 31).
		p := fixture.WriteTemp(t, "h.fods", data)
		res, err := extract.Extract(context.Background(), p, "h.fods", extract.Options{Scratch: t.TempDir(), HiddenSheets: true})
		fixture.CheckNative(t, res, err)
	})
}

// TestIssue33OOo2Manifest: a package whose manifest carries the DOCTYPE
// OpenOffice.org 2.x wrote (testdata/ooo2.sh) is read like the same
// package without it: every place and line.
func TestIssue33OOo2Manifest(t *testing.T) {
	want, err := read(t, filepath.Join("testdata", "text.odt"), "text.odt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := read(t, filepath.Join("testdata", "ooo2-manifest.odt"), "ooo2-manifest.odt")
	if err != nil {
		t.Fatalf("ooo2-manifest.odt: %v", err)
	}
	if !reflect.DeepEqual(got.Places, want.Places) || len(got.Places) == 0 {
		t.Errorf("places = %q\nwant %q", got.Places, want.Places)
	}
	// A flat document with a bare DOCTYPE too.
	flat, err := os.ReadFile(filepath.Join("testdata", "text.fodt"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(flat), "?>") + 2
	doc := string(flat[:i]) + `<!DOCTYPE office:document PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "office.dtd">` + string(flat[i:])
	res, err := read(t, fixture.WriteTemp(t, "doctype.fodt", []byte(doc)), "doctype.fodt")
	if err != nil {
		t.Fatal(err)
	}
	wantFlat, err := read(t, filepath.Join("testdata", "text.fodt"), "text.fodt")
	if err != nil || !reflect.DeepEqual(res.Places, wantFlat.Places) {
		t.Errorf("flat with DOCTYPE: %q, %v", res.Places, err)
	}
}
