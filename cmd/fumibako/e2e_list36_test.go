package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// excelCP932 encodes text as Excel saves "Text (Tab delimited)" on a
// Japanese Windows: a character cp932 cannot hold becomes `?`.
func excelCP932(t *testing.T, text string) []byte {
	t.Helper()
	enc := japanese.ShiftJIS.NewEncoder()
	var b bytes.Buffer
	for _, r := range text {
		s, err := enc.String(string(r))
		if err != nil {
			s = "?"
		}
		b.WriteString(s)
	}
	return b.Bytes()
}

// TestIssue36ExcelLostNames: an ingest list that Excel saved again as
// cp932, which turned the emoji of two names into `?`, keeps their states:
// the failed file stays failed and skipped, nothing is ingested again, the
// log names each line it matched, and the rewrite holds the real names.
// Before, both rows were rejected (counted, no line named), both files
// ingested again, and the failure was forgotten until it failed anew.
// Then lines of a list in the seed's form that cannot be read (a NUL in a
// name, a garbage line) are each logged with their line number.
func TestIssue36ExcelLostNames(t *testing.T) {
	f := newFixture(t)
	f.mustRun("folder", "add", f.root)
	f.write("a.txt", "りんご\n")
	f.write("😀メモ.txt", "みかん\n")
	var docx bytes.Buffer // a .docx without word/document.xml: 失敗
	zw := zip.NewWriter(&docx)
	w, _ := zw.Create("[Content_Types].xml")
	w.Write([]byte(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`))
	zw.Close()
	f.write("壊れた😀.docx", docx.String())
	f.mustRun("index")
	failed := f.row("壊れた😀.docx")
	if failed.State != ingestlist.Failed {
		t.Fatalf("fixture: %+v, want 失敗", failed)
	}
	listPath := filepath.Join(f.ws, "work", "store", "ingest_status.tsv")
	native, err := os.ReadFile(listPath)
	if err != nil {
		t.Fatal(err)
	}
	saved := excelCP932(t, excelDates(strings.TrimPrefix(string(native), "\uFEFF")))
	if !bytes.Contains(saved, []byte(`\?`)) {
		t.Fatalf("the cp932 list lost no character")
	}
	if err := os.WriteFile(listPath, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	out := f.mustRun("index")
	if !strings.Contains(out, "取り込みが必要なファイルはありません。") || !strings.Contains(out, "スキップします") {
		t.Errorf("a list whose names lost characters caused a re-ingest:\n%s", out)
	}
	for _, name := range []string{"😀メモ.txt", "壊れた😀.docx"} {
		if want := "更新日時とサイズが同じ 営業\\" + name + " の行として読みました。"; !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if r := f.row("壊れた😀.docx"); r.State != ingestlist.Failed || r.Error != failed.Error || r.IngestedAt[:16] != failed.IngestedAt[:16] {
		t.Errorf("failed row after the re-saved list: %+v, was %+v", r, failed)
	}
	if r := f.row("😀メモ.txt"); r.State != ingestlist.Done {
		t.Errorf("😀メモ.txt: %+v", r)
	}

	// The seed's form with a NUL written into a name and a garbage line.
	native, _ = os.ReadFile(listPath)
	bad := string(native) + "営業\\x\x00.txt\t2025/01/10 12:34:56\t1\t失敗\t\t2026/09/19 10:00:35\t開けません\t\r\n" +
		strings.Repeat("\x01\xfe", 2<<20) + "\r\n"
	lines := strings.Count(string(native), "\r\n")
	os.WriteFile(listPath, []byte(bad), 0o644)
	out = f.mustRun("index")
	for _, want := range []string{
		"取り込み一覧の " + strconv.Itoa(lines+1) + " 行目を読み飛ばしました: インデックス名・パスに制御文字（NUL など）が入っています",
		"取り込み一覧の " + strconv.Itoa(lines+2) + " 行目を読み飛ばしました: 行が長すぎます（1 MiB を超えています）",
	} {
		if !strings.Contains(out, want) || !strings.Contains(f.log(), want) {
			t.Errorf("output or log lacks %q:\n%s", want, out)
		}
	}
}
