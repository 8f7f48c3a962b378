package docx

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// The page estimate against LibreOffice's own layout: generated
// documents (Japanese, English and mixed, 300+ paragraphs of mixed
// lengths, some empty, a few manual breaks) are read by the .docx reader
// and converted to PDF by soffice; pdftotext gives each page's text, so
// each paragraph's page (found by its marker `PnnnX`) is compared with the
// estimate. A paragraph within one page of LibreOffice's counts as right.

// layoutDoc is one generated document.
type layoutDoc struct {
	name                     string
	width, height            int // page, twips
	left, right, top, bottom int
	sz                       int    // w:sz, half-points
	grid                     int    // docGrid linePitch (type lines); 0: none
	spacing                  string // w:spacing attributes of pPrDefault
	paras                    int
	japanese, english        bool
	font                     string
}

var layoutDocs = []layoutDoc{
	{name: "english", width: 12240, height: 15840, left: 1440, right: 1440, top: 1440, bottom: 1440, sz: 24, paras: 320, english: true, font: "Liberation Serif"},
	{name: "japanese", width: 11906, height: 16838, left: 1701, right: 1701, top: 1985, bottom: 1701, sz: 21, grid: 360, paras: 320, japanese: true, font: "Noto Serif CJK JP"},
	{name: "mixed", width: 11906, height: 16838, left: 1440, right: 1440, top: 1440, bottom: 1440, sz: 22, spacing: `w:after="160" w:line="259" w:lineRule="auto"`, paras: 340, japanese: true, english: true, font: "Liberation Sans"},
}

var (
	layoutKana  = []rune("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん日本語文書会議資料報告予算計画変更確認")
	layoutWords = strings.Fields("the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing and several other matters of some importance to the committee")
)

// paragraphs returns the paragraph texts (empty ones included, "\f"
// standing for a paragraph holding a manual page break).
func (d layoutDoc) paragraphs() []string {
	rng := rand.New(rand.NewSource(int64(len(d.name) * 7919)))
	var out []string
	for i := 0; i < d.paras; i++ {
		switch r := rng.Intn(100); {
		case r < 8:
			out = append(out, "")
			continue
		case r == 8 && i > 20:
			out = append(out, "\f")
			continue
		}
		var n int
		switch r := rng.Intn(10); {
		case r < 5:
			n = 5 + rng.Intn(40)
		case r < 8:
			n = 60 + rng.Intn(150)
		default:
			n = 250 + rng.Intn(500)
		}
		jp := d.japanese && (!d.english || rng.Intn(2) == 0)
		var b strings.Builder
		fmt.Fprintf(&b, "P%03dX ", i)
		if jp {
			for k := 0; k < n; k++ {
				b.WriteRune(layoutKana[rng.Intn(len(layoutKana))])
				if rng.Intn(25) == 0 {
					b.WriteString("、")
				}
			}
			b.WriteString("。")
		} else {
			for b.Len() < 2*n {
				b.WriteString(layoutWords[rng.Intn(len(layoutWords))] + " ")
			}
		}
		out = append(out, b.String())
	}
	return out
}

// docx builds the package.
func (d layoutDoc) docx(tb testing.TB) []byte {
	tb.Helper()
	var body strings.Builder
	for _, p := range d.paragraphs() {
		switch p {
		case "":
			body.WriteString(`<w:p/>`)
		case "\f":
			body.WriteString(`<w:p><w:r><w:br w:type="page"/></w:r></w:p>`)
		default:
			body.WriteString(`<w:p><w:r><w:t xml:space="preserve">` + p + `</w:t></w:r></w:p>`)
		}
	}
	grid := ""
	if d.grid > 0 {
		grid = fmt.Sprintf(`<w:docGrid w:type="lines" w:linePitch="%d"/>`, d.grid)
	}
	doc := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() +
		fmt.Sprintf(`<w:sectPr><w:pgSz w:w="%d" w:h="%d"/><w:pgMar w:top="%d" w:right="%d" w:bottom="%d" w:left="%d" w:header="720" w:footer="720" w:gutter="0"/>%s</w:sectPr>`,
			d.width, d.height, d.top, d.right, d.bottom, d.left, grid) +
		`</w:body></w:document>`
	spacing := `w:after="0" w:line="240" w:lineRule="auto"`
	if d.spacing != "" {
		spacing = d.spacing
	}
	styles := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults>` +
		fmt.Sprintf(`<w:rPrDefault><w:rPr><w:rFonts w:ascii="%[1]s" w:hAnsi="%[1]s" w:eastAsia="Noto Serif CJK JP"/><w:sz w:val="%[2]d"/><w:szCs w:val="%[2]d"/><w:lang w:val="en-US" w:eastAsia="ja-JP"/></w:rPr></w:rPrDefault>`, d.font, d.sz) +
		`<w:pPrDefault><w:pPr><w:spacing ` + spacing + `/></w:pPr></w:pPrDefault></w:docDefaults>` +
		`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`
	parts := map[string]string{
		"[Content_Types].xml":          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
		"_rels/.rels":                  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/_rels/document.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
		"word/document.xml":            doc,
		"word/styles.xml":              styles,
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels", "word/document.xml", "word/styles.xml"} {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write([]byte(parts[name]))
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// markerPages maps each paragraph marker to its page in the places.
func markerPages(res *extract.Result) map[string]int {
	out := map[string]int{}
	for _, pl := range res.Places {
		base, ok := strings.CutPrefix(pl.Name, extract.PagePrefix)
		if !ok {
			continue
		}
		base = strings.TrimSuffix(base, extract.EstimateSuffix)
		n, err := strconv.Atoi(base)
		if err != nil {
			continue
		}
		for _, l := range pl.Lines {
			if m, _, ok := strings.Cut(l, " "); ok && strings.HasPrefix(m, "P") && strings.HasSuffix(m, "X") {
				out[m] = n
			}
		}
	}
	return out
}

func TestPageEstimateLibreOffice(t *testing.T) {
	soffice := testutil.Require(t, "soffice")
	pdftotext := testutil.Require(t, "pdftotext")
	dir := t.TempDir()
	if d := os.Getenv("FUMIBAKO_LAYOUT_DIR"); d != "" {
		dir = d // keep the documents and PDFs to look at
	}
	var files []string
	for _, d := range layoutDocs {
		p := filepath.Join(dir, d.name+".docx")
		if err := os.WriteFile(p, d.docx(t), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--headless", "--norestore", "--convert-to", "pdf", "--outdir", filepath.Join(dir, "pdf")}, files...)
	if b, err := exec.Command(soffice, args...).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	// The same documents as Word 97 .doc files (written by LibreOffice,
	// read by the native reader, which always estimates), with their own
	// PDFs.
	var docs []string
	for _, d := range layoutDocs {
		docs = append(docs, filepath.Join(dir, "pdf", d.name+".docx"))
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(dir, "pdf", filepath.Base(f)), b, 0o644)
	}
	convert := func(to, outdir string, in ...string) {
		args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--headless", "--norestore", "--convert-to", to, "--outdir", outdir}, in...)
		if b, err := exec.Command(soffice, args...).CombinedOutput(); err != nil {
			t.Fatalf("soffice: %v\n%s", err, b)
		}
	}
	convert("doc:MS Word 97", filepath.Join(dir, "doc"), docs...)
	var docFiles []string
	for _, d := range layoutDocs {
		docFiles = append(docFiles, filepath.Join(dir, "doc", d.name+".doc"))
	}
	convert("pdf", filepath.Join(dir, "docpdf"), docFiles...)
	for _, d := range layoutDocs {
		res, err := extract.ReaderFor(".docx")(context.Background(), filepath.Join(dir, d.name+".docx"), extract.Options{Scratch: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		measureEstimate(t, pdftotext, d.name+".docx", d.paras, res, filepath.Join(dir, "pdf", d.name+".pdf"))
		res, err = extract.NativeReaders()[".doc"](context.Background(), filepath.Join(dir, "doc", d.name+".doc"), extract.Options{Scratch: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		measureEstimate(t, pdftotext, d.name+".doc", d.paras, res, filepath.Join(dir, "docpdf", d.name+".pdf"))
	}
}

// measureEstimate compares the estimated page of each paragraph of res
// with its page in LibreOffice's PDF, logs the agreement and fails below
// 90 % within one page.
func measureEstimate(t *testing.T, pdftotext, name string, paras int, res *extract.Result, pdf string) {
	t.Helper()
	for _, pl := range res.Places {
		if strings.HasPrefix(pl.Name, extract.PagePrefix) && !strings.Contains(pl.Name, extract.EstimateSuffix) {
			t.Errorf("%s: place %s is not marked as an estimate", name, pl.Name)
		}
	}
	est := markerPages(res)
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", pdf, err)
	}
	lo := map[string]int{}
	pages := strings.Split(string(out), "\f")
	for i, pg := range pages {
		for _, f := range strings.Fields(pg) {
			if len(f) == 5 && f[0] == 'P' && f[4] == 'X' {
				if _, seen := lo[f]; !seen {
					lo[f] = i + 1
				}
			}
		}
	}
	var total, exact, near, worst int
	for m, want := range lo {
		got, ok := est[m]
		if !ok {
			continue
		}
		total++
		diff := got - want
		if diff < 0 {
			diff = -diff
		}
		if diff == 0 {
			exact++
		}
		if diff <= 1 {
			near++
		}
		worst = max(worst, diff)
	}
	last := 0
	for _, p := range est {
		last = max(last, p)
	}
	if total == 0 {
		t.Errorf("%s: no paragraph found in both", name)
		return
	}
	t.Logf("%s: %d paragraphs, LibreOffice %d pages, estimate %d pages; same page %d (%.0f %%), within ±1 %d (%.0f %%), worst %d",
		name, total, len(pages)-1, last, exact, 100*float64(exact)/float64(total), near, 100*float64(near)/float64(total), worst)
	if total < paras*3/4 {
		t.Errorf("%s: only %d paragraphs found in both", name, total)
	}
	if near*10 < total*9 {
		t.Errorf("%s: %d of %d paragraphs within one page of LibreOffice's (want ≥ 90 %%)", name, near, total)
	}
}
