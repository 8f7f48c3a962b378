package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// excelDates re-formats the list's date-times as Excel shows them on a
// Japanese system and writes them back when it saves (yyyy/m/d h:mm).
func excelDates(s string) string {
	re := regexp.MustCompile(`(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):\d\d`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		p := re.FindStringSubmatch(m)
		n := func(s string) string { v, _ := strconv.Atoi(s); return strconv.Itoa(v) }
		return p[1] + "/" + n(p[2]) + "/" + n(p[3]) + " " + n(p[4]) + ":" + p[5]
	})
}

// TestIssue15ExcelSavedList: an ingest list that Excel saved again
// (Shift_JIS or UTF-16, dates without seconds) is read: nothing is
// ingested again, the failed file stays skipped, and the list is back in
// the seed's form. One that cannot be read stops the run and is kept;
// --reset-list moves it aside and starts over.
func TestIssue15ExcelSavedList(t *testing.T) {
	f := newFixture(t)
	f.mustRun("folder", "add", f.root)
	f.write("a.txt", "りんご\n")
	f.write("sub/b.txt", "みかん\n")
	var docx bytes.Buffer // a .docx without word/document.xml: 失敗
	zw := zip.NewWriter(&docx)
	w, _ := zw.Create("[Content_Types].xml")
	w.Write([]byte(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`))
	zw.Close()
	f.write("壊れた.docx", docx.String())
	f.mustRun("index")
	if r := f.row("壊れた.docx"); r.State != "失敗" {
		t.Fatalf("fixture: %+v, want 失敗", r)
	}
	listPath := filepath.Join(f.ws, "work", "store", "ingest_status.tsv")
	native, err := os.ReadFile(listPath)
	if err != nil {
		t.Fatal(err)
	}
	text := excelDates(strings.TrimPrefix(string(native), "\uFEFF"))
	sjis, err := japanese.ShiftJIS.NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	utf16le, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(text)
	if err != nil {
		t.Fatal(err)
	}
	// What the rewrite holds: the crawled times again, and 取り込み日時 as
	// Excel left it (to the minute).
	var want strings.Builder
	for i, line := range strings.SplitAfter(string(native), "\r\n") {
		cols := strings.Split(line, "\t")
		if i >= 2 && len(cols) == 8 && len(cols[5]) == 19 {
			cols[5] = cols[5][:16] + ":00"
		}
		want.WriteString(strings.Join(cols, "\t"))
	}
	for _, tc := range []struct{ name, data string }{{"Shift_JIS", sjis}, {"UTF-16 LE", utf16le}} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(listPath, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			out := f.mustRun("index")
			if !strings.Contains(out, "取り込みが必要なファイルはありません。") || !strings.Contains(out, "スキップします") {
				t.Errorf("a list saved by Excel caused a re-ingest:\n%s", out)
			}
			if !strings.Contains(out, "取り込み一覧は別の形式（"+tc.name) {
				t.Errorf("the re-saved list is not reported:\n%s", out)
			}
			got, _ := os.ReadFile(listPath)
			if string(got) != want.String() {
				t.Errorf("rewritten list =\n%q\nwant the seed's form\n%q", got, want.String())
			}
		})
	}

	// A list saved as comma-separated text cannot be read.
	comma := strings.ReplaceAll(text, "\t", ",")
	os.WriteFile(listPath, []byte(comma), 0o644)
	out, errOut, code := f.run("index")
	if code != 1 || !strings.Contains(errOut, "取り込み一覧（"+listPath+"）の 1 行目を読み取れません") || !strings.Contains(errOut, "--reset-list") {
		t.Fatalf("index with an unreadable list: exit %d\n%s\n%s", code, out, errOut)
	}
	if got, _ := os.ReadFile(listPath); string(got) != comma {
		t.Errorf("an unreadable list was replaced")
	}
	out = f.mustRun("index", "--reset-list")
	moved, _ := filepath.Glob(listPath + ".broken-*")
	if len(moved) != 1 || !strings.Contains(out, "3 件のファイルを取り込みます") {
		t.Fatalf("--reset-list: moved %v\n%s", moved, out)
	}
	if got, _ := os.ReadFile(moved[0]); string(got) != comma {
		t.Errorf("the moved-aside list differs")
	}
	if r := f.row("a.txt"); r.State != "済" {
		t.Errorf("after --reset-list: %+v", r)
	}
}
