package all_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// table is the registry as extract/all links it: one line per format, its
// role and its extensions (text lists its count). A change of the table is
// a change of what fumibako reads: update this listing and DESIGN.md
// "Extraction" together.
const table = `doc native .doc
  embedded WordDocument
docx reader .docx .docm
image reader .tif .tiff .png .jpg .jpeg .bmp
libreoffice fallback .xls .xlsb .doc .ppt
odf reader .odt .ods .odp
odf-flat reader .fodt .fods .fodp
pdf reader .pdf
ppt native .ppt
  embedded PowerPoint Document
pptx reader .pptx .pptm
  embedded ppt/presentation.xml
rtf reader .rtf
text reader (75 extensions)
xls native .xls
  embedded Workbook
  embedded Book
xlsb native .xlsb
xlsx reader .xlsx .xlsm`

func TestRegistryTable(t *testing.T) {
	var lines []string
	for _, f := range extract.Formats() {
		role := "reader"
		switch {
		case f.Native:
			role = "native"
		case f.Fallback:
			role = "fallback"
		}
		exts := strings.Join(f.Extensions, " ")
		if len(f.Extensions) > 8 {
			exts = fmt.Sprintf("(%d extensions)", len(f.Extensions))
		}
		lines = append(lines, f.Name+" "+role+" "+exts)
		for _, e := range f.Embedded {
			lines = append(lines, "  embedded "+e.Holds)
		}
	}
	if got := strings.Join(lines, "\n"); got != table {
		t.Errorf("the registry is\n%s\nwant\n%s", got, table)
	}
}

// TestEveryTargetHasOneReader: each extension the crawl takes has exactly
// one reader (a Format without Native), and every native reader has a
// fallback reader for its extension; no reader serves an extension the
// crawl never takes (image files are taken for roots that read images,
// issue 29).
func TestEveryTargetHasOneReader(t *testing.T) {
	targets := slices.Concat(extract.OfficeExtensions, extract.TextExtensions, []string{".pdf"}, extract.ImageExtensions)
	for e := range extract.OpenDocumentKinds {
		targets = append(targets, e)
	}
	readers, natives := map[string]int{}, map[string]int{}
	for _, f := range extract.Formats() {
		for _, e := range f.Extensions {
			if f.Native {
				natives[e]++
			} else {
				readers[e]++
			}
		}
	}
	for _, e := range targets {
		if readers[e] != 1 {
			t.Errorf("%s has %d readers, want 1", e, readers[e])
		}
		if extract.ReaderFor(e) == nil {
			t.Errorf("ReaderFor(%s) is nil", e)
		}
	}
	for e, n := range natives {
		if n != 1 || readers[e] != 1 {
			t.Errorf("native %s: %d native readers and %d readers, want 1 and 1", e, n, readers[e])
		}
	}
	for e := range readers {
		if !slices.Contains(targets, e) {
			t.Errorf("%s has a reader but the crawl never takes it", e)
		}
	}
}

// TestEveryEmbeddedKindHasAReader: each kind of embedded object package
// embed tells apart is read by exactly one registered format, so what an
// embedded object gives does not depend on which readers happen to be
// linked.
func TestEveryEmbeddedKindHasAReader(t *testing.T) {
	holds := []string{ooxml.PresentationPart}
	for _, h := range embed.CompoundHolds {
		holds = append(holds, h.Stream)
	}
	for _, h := range holds {
		if extract.EmbeddedReader(h) == nil {
			t.Errorf("no format reads an embedded object holding %q", h)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a second reader for embedded Workbook was accepted")
		}
	}()
	extract.RegisterFormat(extract.Format{Name: "another-xls", Read: extract.ReaderFor(".pdf"),
		Embedded: []extract.Embedded{{Holds: "Workbook", Read: extract.EmbeddedReader("Workbook")}}})
}

// TestRegisterFormatRefusesASecondReader: registering an extension twice
// is a programming error caught when the program starts.
func TestRegisterFormatRefusesASecondReader(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second reader for .pdf was accepted")
		}
	}()
	extract.RegisterFormat(extract.Format{Name: "another-pdf", Extensions: []string{".pdf"}, Read: extract.ReaderFor(".pdf")})
}
