package main

import (
	"encoding/json"
	"image"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestOCRWithTesseract runs issue 29 with the real engine, as a user does
// after make setup: a PDF whose first page has a text layer and whose
// second is a scan, and a TIFF under a root that reads images; the
// planted words are found with their OCR labels, and a second run costs
// no OCR (the waiting list is empty and nothing is ingested again).
func TestOCRWithTesseract(t *testing.T) {
	testutil.Require(t, "tesseract")
	font, err := testcorpus.ScanFont()
	if err != nil {
		testutil.Unavailable(t, "%v", err)
	}
	page := func(k testcorpus.ScanKind, seed int64) testcorpus.ScanPage {
		p, err := testcorpus.ScanPageOf(font, k, rand.New(rand.NewSource(seed)))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	scan, fax := page(testcorpus.ScanHorizontal, 1), page(testcorpus.ScanNoisy, 2)
	pdf, err := testcorpus.ScanPDF([]testcorpus.ScanPDFPage{{Text: "TEXTLAYERPAGE"}, {Image: scan.Image, DPI: scan.DPI}})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.write("契約/scan.pdf", string(pdf))
	f.write("FAX/fax.tif", string(testcorpus.ScanTIFF([]*image.Gray{fax.Image}, fax.DPI)))
	f.mustRun("folder", "add", f.root, "--ocr-images")
	f.mustRun("index", "--workers", "2")
	if out := f.mustRun("search", "TEXTLAYERPAGE"); !strings.Contains(out, filepath.Join("契約", "scan.pdf")) || !strings.Contains(out, "1 ページ\t") {
		t.Errorf("the text layer page:\n%s", out)
	}
	// OCR may miss a character here and there (TestScanCorpus measures
	// recall): each scanned page must give most of its planted words.
	for _, c := range []struct {
		page        testcorpus.ScanPage
		file, label string
	}{
		{scan, filepath.Join("契約", "scan.pdf"), "2 ページ（OCR）"},
		{fax, filepath.Join("FAX", "fax.tif"), "画像（OCR）"},
	} {
		found := 0
		for _, w := range c.page.Words {
			out, _, _ := f.run("search", "--name", filepath.Base(c.file), w)
			if strings.Contains(out, c.file) && strings.Contains(out, c.label) {
				found++
			}
		}
		if found*10 < len(c.page.Words)*8 {
			all, _, _ := f.run("search", "--regex", ".")
			t.Errorf("%s: %d of the planted words %q found at %s, want 80 %%\nknown text: %q\nindexed:\n%s", c.file, found, c.page.Words, c.label, c.page.Text, all)
		}
	}
	if out := f.mustRun("search", "--json", scan.Words[0]); !strings.Contains(out, `"ocr":true`) {
		t.Errorf("--json of an OCR hit lacks \"ocr\":true:\n%s", out)
	}
	if out := f.mustRun("index", "--plain"); !strings.Contains(out, "取り込みが必要なファイルはありません。") {
		t.Errorf("a second run ingested again:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "ocr_waiting.tsv")); !os.IsNotExist(err) {
		t.Errorf("a waiting list with the engine installed: %v", err)
	}
}

// TestOCREngineWithoutJapanese: a Tesseract installed without Japanese
// data (the UB Mannheim installer leaves it out unless chosen) is said to
// be unusable, with how to add the languages, and the scan waits for OCR
// as it would with no engine; it is not taken for a missing engine.
func TestOCREngineWithoutJapanese(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake engine is a shell script")
	}
	font, err := testcorpus.ScanFont()
	if err != nil {
		testutil.Unavailable(t, "%v", err)
	}
	p, err := testcorpus.ScanPageOf(font, testcorpus.ScanHorizontal, rand.New(rand.NewSource(3)))
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := testcorpus.ScanPDF([]testcorpus.ScanPDFPage{{Image: p.Image, DPI: p.DPI}})
	if err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(t.TempDir(), "tesseract")
	script := "#!/bin/sh\ncase \"$1\" in\n--version) echo 'tesseract 5.3.0';;\n--list-langs) echo 'List of available languages (2):'; echo eng; echo osd;;\n*) exit 1;;\nesac\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.write("scan.pdf", string(pdf))
	f.mustRun("folder", "add", f.root)
	settings := filepath.Join(f.ws, "settings.json")
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	s["tesseractPath"] = fake
	data, _ = json.Marshal(s)
	if err := os.WriteFile(settings, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := f.mustRun("index", "--plain")
	for _, want := range []string{
		"OCR（" + fake + "）は見つかりましたが、日本語（jpn・jpn_vert）または英語（eng）の言語データがないため使えません。",
		"OCR を待つページ: 1（1 ファイル）",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the run does not say %q:\n%s", want, out)
		}
	}
	if r := f.row("scan.pdf"); r.State != ingestlist.Done {
		t.Errorf("scan.pdf: %v %q, want 済 waiting for OCR", r.State, r.Error)
	}
}
