package ocr_test

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/ocr"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/textfold"
)

// Thresholds of issue 29 for the generated scan corpus.
const (
	wantRecallHorizontal = 0.90
	wantRecallVertical   = 0.80
	wantPagesAllWords    = 0.90
)

// tesseract returns a ready engine, or stops the test when Tesseract or
// its languages are missing (make setup installs them).
func tesseract(t *testing.T) *ocr.Tesseract {
	t.Helper()
	p, err := ocr.Find("")
	if err != nil {
		testutil.Unavailable(t, "tesseract not installed (make setup): %v", err)
	}
	e, err := ocr.New(p, t.TempDir())
	if err != nil {
		testutil.Unavailable(t, "tesseract unusable (make setup): %v", err)
	}
	return e
}

// timed counts the engine's calls and their time.
type timed struct {
	e     *ocr.Tesseract
	pages int
	spent time.Duration
	each  []time.Duration // per call, in the order the pages are read
}

func (x *timed) Recognize(ctx context.Context, img image.Image) ([]string, error) {
	start := time.Now()
	defer func() {
		d := time.Since(start)
		x.pages++
		x.spent += d
		x.each = append(x.each, d)
	}()
	return x.e.Recognize(ctx, img)
}

// TestScanCorpus reads the generated scan corpus (testcorpus.ScanPages:
// clean, noisy and skewed JPEG-damaged, vertical, turned 90° and 180°,
// two-column pages) through the readers, as the worker does: pages 1–6
// in a PDF after a page with a text layer, pages 7–12 in a multi-page
// TIFF. It asserts the character recall of the known text per page kind
// (≥ 90 % horizontal, ≥ 80 % vertical, in reading order) and that the
// planted 4-character words are found by a folded substring search, as
// search finds them, on ≥ 90 % of the pages; it logs recall per kind and
// seconds per page.
func TestScanCorpus(t *testing.T) {
	eng := &timed{e: tesseract(t)}
	font, err := testcorpus.ScanFont()
	if err != nil {
		testutil.Unavailable(t, "%v", err)
	}
	pages, err := testcorpus.ScanPages(font, 12, 29)
	if err != nil {
		t.Fatal(err)
	}
	pdfPages := []testcorpus.ScanPDFPage{{Text: "Text layer page"}}
	for _, p := range pages[:6] {
		pdfPages = append(pdfPages, testcorpus.ScanPDFPage{Image: p.Image, DPI: p.DPI})
	}
	pdf, err := testcorpus.ScanPDF(pdfPages)
	if err != nil {
		t.Fatal(err)
	}
	var tifPages []*image.Gray
	for _, p := range pages[6:] {
		tifPages = append(tifPages, p.Image)
	}
	dir := t.TempDir()
	// The PDF first, then the TIFF: the engine's calls come in page order.
	files := []struct {
		name string
		b    []byte
	}{{"scan.pdf", pdf}, {"fax.tif", testcorpus.ScanTIFF(tifPages, 300)}}
	got := map[int][]string{} // page index → lines read
	for _, f := range files {
		name, b := f.name, f.b
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		opt := extract.Options{Scratch: t.TempDir(), OCR: &extract.OCR{Engine: func() extract.Recognizer { return eng }}}
		res, err := extract.Extract(context.Background(), p, name, opt)
		if err != nil {
			t.Fatalf("Extract(%s) = %v", name, err)
		}
		for _, pl := range res.Places {
			switch {
			case name == "scan.pdf" && pl.Name == extract.PageName(1):
				if strings.Join(pl.Lines, "") != "Text layer page" {
					t.Errorf("text page = %q", pl.Lines)
				}
			case name == "scan.pdf" && numbered(pl.Name, extract.OCRPageName) > 1:
				got[numbered(pl.Name, extract.OCRPageName)-2] = pl.Lines
			case name == "fax.tif" && numbered(pl.Name, extract.OCRImageName) > 0:
				got[6+numbered(pl.Name, extract.OCRImageName)-1] = pl.Lines
			default:
				t.Errorf("%s: unexpected place %q", name, pl.Name)
			}
		}
	}
	type stat struct {
		recall  float64
		pages   int
		seconds float64
	}
	kinds := map[testcorpus.ScanKind]*stat{}
	allWords := 0
	for i, p := range pages {
		read := strings.Join(got[i], "\n")
		r := recall(strings.Join(p.Text, ""), read)
		missing := missingWords(p.Words, read)
		if len(missing) == 0 {
			allWords++
		}
		s := kinds[p.Kind]
		if s == nil {
			s = &stat{}
			kinds[p.Kind] = s
		}
		s.recall += r
		s.pages++
		if i < len(eng.each) {
			s.seconds += eng.each[i].Seconds()
		}
		want := wantRecallHorizontal
		if p.Vertical() {
			want = wantRecallVertical
		}
		if r < want {
			t.Errorf("page %d (%s): recall %.1f %%, want ≥ %.0f %%\nread:\n%s\nknown:\n%s", i+1, p.Kind, 100*r, 100*want, read, strings.Join(p.Text, "\n"))
		}
		if len(missing) > 0 {
			t.Logf("page %d (%s): words not found: %q; read:\n%s", i+1, p.Kind, missing, read)
		}
	}
	var names []string
	for k := range kinds {
		names = append(names, string(k))
	}
	sort.Strings(names)
	for _, k := range names {
		s := kinds[testcorpus.ScanKind(k)]
		t.Logf("recall %-10s %5.1f %% (%d pages, %.1f s per page)", k, 100*s.recall/float64(s.pages), s.pages, s.seconds/float64(s.pages))
	}
	t.Logf("pages with every planted word found: %d of %d; %.1f s per page (%d pages, %s)",
		allWords, len(pages), eng.spent.Seconds()/float64(max(eng.pages, 1)), eng.pages, eng.e.Version())
	if eng.pages != len(pages) {
		t.Errorf("engine read %d pages, want %d", eng.pages, len(pages))
	}
	if float64(allWords) < wantPagesAllWords*float64(len(pages)) {
		t.Errorf("every planted word found on %d of %d pages, want ≥ %.0f %%", allWords, len(pages), 100*wantPagesAllWords)
	}
}

// numbered returns the n ≤ 99 whose name(n) is place, or 0.
func numbered(place string, name func(int) string) int {
	for n := 1; n < 100; n++ {
		if name(n) == place {
			return n
		}
	}
	return 0
}

// norm folds s as the index does and drops white space.
func norm(s string) []rune {
	var out []rune
	for _, r := range textfold.String(s) {
		if !unicode.IsSpace(r) {
			out = append(out, r)
		}
	}
	return out
}

// recall is the share of the known text's characters read in order: the
// longest common subsequence of the two, over the known length.
func recall(known, read string) float64 {
	a, b := norm(known), norm(read)
	if len(a) == 0 {
		return 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(b)]) / float64(len(a))
}

// missingWords returns the words a folded substring search of the read
// lines does not find (a word does not cross a line break, as in search).
func missingWords(words []string, read string) []string {
	var lines []string
	for _, l := range strings.Split(read, "\n") {
		lines = append(lines, string(norm(l)))
	}
	var out []string
	for _, w := range words {
		found := false
		for _, l := range lines {
			if strings.Contains(l, string(norm(w))) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, w)
		}
	}
	return out
}
