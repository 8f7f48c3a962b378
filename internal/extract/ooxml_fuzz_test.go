package extract_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// ooxmlFuzzSeeds are small packages covering the reader's paths; -update
// also writes them to testdata/fuzz/<target>/ in the go fuzz corpus form.
func ooxmlFuzzSeeds(tb testing.TB, target string) map[string][]byte {
	switch target {
	case "FuzzDocx":
		return map[string][]byte{
			"body":     zipBytes(tb, docxParts(docxBody, nil)...),
			"rendered": zipBytes(tb, docxParts(docxRendered, nil)...),
			"objects": zipBytes(tb, docxParts(docxObjects, []string{"rIdC", "chart", "charts/chart1.xml", "rIdD", "diagramData", "../word/diagrams/data1.xml"},
				part{"word/charts/chart1.xml", chartXML}, part{"word/diagrams/data1.xml", diagramXML})...),
			"comments": zipBytes(tb, docxParts(docxCommentsBody, nil, part{"word/comments.xml", commentsXML},
				part{"word/header1.xml", wPart("hdr", wP("ヘッダー"))}, part{"word/footnotes.xml", wPart("footnotes", `<w:footnote w:id="1">`+wP("注")+`</w:footnote>`)})...),
			"embed": zipBytes(tb, docxParts(`<w:p>`+wR(`<w:object><o:OLEObject Type="Embed" r:id="rIdX"/></w:object>`)+`</w:p>`,
				[]string{"rIdX", "package", "embeddings/a.xlsx"}, part{"word/embeddings/a.xlsx", embedWorkbook(tb, 0)})...),
		}
	case "FuzzPptx":
		return map[string][]byte{
			"slides": zipBytes(tb, pptxParts([]string{"ppt/slides/slide1.xml", "ppt/slides/slide2.xml"},
				part{"ppt/slides/slide1.xml", pptxSlideA},
				part{"ppt/slides/_rels/slide1.xml.rels", relsXML("rIdN", "notesSlide", "../notesSlides/notesSlide1.xml",
					"rIdK", "comments", "../comments/comment1.xml", "rIdC", "chart", "../charts/chart1.xml")},
				part{"ppt/notesSlides/notesSlide1.xml", pptxNotes},
				part{"ppt/comments/comment1.xml", pptxLegacyComments},
				part{"ppt/charts/chart1.xml", chartXML},
				part{"ppt/slides/slide2.xml", pptxSlideC},
				part{"ppt/slides/_rels/slide2.xml.rels", relsXML("rIdM", "comments", "../comments/modernComment_1.xml")},
				part{"ppt/comments/modernComment_1.xml", pptxModernComments})...),
		}
	}
	return nil
}

func fuzzOOXML(f *testing.F, ext string) {
	seeds := ooxmlFuzzSeeds(f, f.Name())
	for name, data := range seeds {
		f.Add(data)
		if testutil.Update() {
			dir := filepath.Join("testdata", "fuzz", f.Name())
			if err := os.MkdirAll(dir, 0o755); err != nil {
				f.Fatal(err)
			}
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
			if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(body), 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
	opt := extract.Options{Limits: extract.Limits{ZipPartBytes: 1 << 20, ZipTotalBytes: 4 << 20, ZipEntries: 1000, XMLDepth: 200}}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ooxmlExtractBytes(t, "f"+ext, data, opt)
		if err != nil {
			var fe *extract.Error
			if !errors.As(err, &fe) {
				t.Fatalf("error is not an *extract.Error: %v", err)
			}
			if strings.Contains(fmt.Sprint(fe.Cause), "panic") {
				t.Fatalf("reader panicked: %v", fe.Cause)
			}
			return
		}
		for _, p := range res.Places {
			if p.Name == "" || len(p.Lines) == 0 {
				t.Fatalf("bad place %+v", p)
			}
			for _, l := range p.Lines {
				if l == "" || strings.ContainsAny(l, "\r\n") || strings.TrimRight(l, " \t") != l {
					t.Fatalf("place %s: bad line %q", p.Name, l)
				}
			}
		}
	})
}

func FuzzDocx(f *testing.F) { fuzzOOXML(f, ".docx") }
func FuzzPptx(f *testing.F) { fuzzOOXML(f, ".pptx") }
