package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestPDFs indexes a folder of PDFs written by LibreOffice and by a Go PDF
// writer (internal/extract/pdf/testdata) and searches them: each planted
// token is found at its page, the comment and the title as places of their
// own, the password-protected file fails with the password message, the
// owner-only one is read, the scan succeeds with no places and is counted
// in the summary, and --kind pdf keeps the PDFs only.
func TestPDFs(t *testing.T) {
	f := newFixture(t)
	// Without an OCR engine, so the scan keeps its issue-20 outcome
	// whether or not this machine has Tesseract (OCR: e2e_ocr_test.go).
	f.env = append(f.env, "FUMIBAKO_TEST_OCR=missing")
	src := filepath.Join("..", "..", "internal", "extract", "pdf", "testdata")
	names, err := filepath.Glob(filepath.Join(src, "*.pdf"))
	if err != nil || len(names) == 0 {
		t.Fatalf("fixtures: %v %v", names, err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f.write("PDF/"+filepath.Base(n), string(b))
	}
	f.write("memo.txt", "PAGETWOBB のメモ\n")
	f.mustRun("folder", "add", f.root)
	out := f.mustRun("index")

	rows := []struct {
		file  string
		state ingestlist.State
		msg   string
	}{
		{"lo-horizontal.pdf", ingestlist.Done, ""},
		{"lo-vertical.pdf", ingestlist.Done, ""},
		{"lo-owner-only.pdf", ingestlist.Done, ""},
		{"fpdf-ipag.pdf", ingestlist.Done, ""},
		{"lo-scan.pdf", ingestlist.Done, ""},
		{"lo-password.pdf", ingestlist.Failed, extract.MsgPassword},
		{"damaged-cut.pdf", ingestlist.Failed, extract.MsgCorrupt},
		// Issue 33: one bad page skipped, every page bad still 失敗.
		{"qpdf-badpage.pdf", ingestlist.Done, ""},
		{"qpdf-allbad.pdf", ingestlist.Failed, extract.MsgCorrupt},
	}
	for _, r := range rows {
		got := f.row("PDF/" + r.file)
		if got.State != r.state || got.Error != r.msg {
			t.Errorf("%s: row %v %q, want %v %q", r.file, got.State, got.Error, r.state, r.msg)
		}
	}
	if r := f.row("PDF/lo-scan.pdf"); r.TSVCount != 0 {
		t.Errorf("scan: %d places, want 0", r.TSVCount)
	}
	if log := f.log(); !strings.Contains(log, "lo-scan.pdf\r\n    文字のないPDFです（画像だけのページ: 1）") {
		t.Errorf("log lacks the scan line:\n%s", log)
	}
	if !strings.Contains(out, "文字のないPDF（画像だけ）が 1 件あります。") {
		t.Errorf("summary lacks the scan count:\n%s", out)
	}

	searches := []struct {
		args []string
		want []string // exact hit lines, in order
	}{
		{[]string{"PAGETHREECC", "--kind", "pdf"}, []string{
			"営業\\PDF\\junk-header.pdf\t3 ページ\t本文\t三頁目 PAGETHREECC　以上。",
			"営業\\PDF\\lo-horizontal.pdf\t3 ページ\t本文\t三頁目 PAGETHREECC　以上。",
			"営業\\PDF\\lo-owner-only.pdf\t3 ページ\t本文\t三頁目 PAGETHREECC　以上。",
			"営業\\PDF\\lo-vertical.pdf\t3 ページ\t本文\t三頁目PAGETHREECC 以上。",
			"営業\\PDF\\qpdf-badpage.pdf\t3 ページ\t本文\t三頁目 PAGETHREECC　以上。",
			"営業\\PDF\\qpdf-rotated.pdf\t3 ページ\t本文\t三頁目 PAGETHREECC　以上。",
		}},
		// Issue 33: a form field's value, a kanji outside the BMP.
		{[]string{"山田太郎FORMAA"}, []string{
			"営業\\PDF\\lo-form.pdf\t2 ページ[フォーム]\tフォーム\t山田太郎FORMAA",
			"営業\\PDF\\qpdf-signature.pdf\t2 ページ[フォーム]\tフォーム\t山田太郎FORMAA",
		}},
		// A signature field's visible text (issue 33).
		{[]string{"SIGNERZZ"}, []string{
			"営業\\PDF\\qpdf-signature.pdf\t1 ページ[フォーム]\tフォーム\tSigned by YAMADA Taro SIGNERZZ 2026-12-05 SIGDATEYY",
		}},
		{[]string{"𠮟る"}, []string{
			"営業\\PDF\\lo-supplementary.pdf\t1 ページ\t本文\t子どもを𠮟る SUPAA",
		}},
		{[]string{"FPDFTWO"}, []string{
			"営業\\PDF\\fpdf-ipag.pdf\t2 ページ\t本文\t二頁目の請求書FPDFTWO、金額１２３４円",
		}},
		{[]string{"FPDFTITLE"}, []string{
			"営業\\PDF\\fpdf-ipag.pdf\t文書情報\t本文\t第二の作成元FPDFTITLE",
		}},
		{[]string{"PAGETWOBB", "--kind", "text"}, []string{"営業\\memo.txt\t1 行目\t本文\tPAGETWOBB のメモ"}},
	}
	for _, s := range searches {
		hits := pdfHits(f.mustRun(append([]string{"search"}, s.args...)...))
		if strings.Join(hits, "\n") != strings.Join(s.want, "\n") {
			t.Errorf("search %v:\n%s\nwant:\n%s", s.args, strings.Join(hits, "\n"), strings.Join(s.want, "\n"))
		}
	}
	hits := pdfHits(f.mustRun("search", "COMMENTCC"))
	if !slices.Contains(hits, "営業\\PDF\\lo-vertical.pdf\t1 ページ\tコメント\t確認してくださいCOMMENTCC") {
		t.Errorf("comment hit missing:\n%s", strings.Join(hits, "\n"))
	}
}

// pdfHits returns the hit lines of plain search output without their
// modification time and freshness: file (with `\` whatever the OS's
// separator), place, kind, text.
func pdfHits(out string) []string {
	var hits []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if fs := strings.Split(l, "\t"); len(fs) == 6 {
			fs[0] = strings.ReplaceAll(fs[0], string(filepath.Separator), `\`)
			hits = append(hits, strings.Join(slices.Delete(fs[:5], 3, 4), "\t"))
		}
	}
	return hits
}
