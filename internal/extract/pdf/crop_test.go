package pdf

import (
	"testing"

	"github.com/klippa-app/go-pdfium/requests"
)

// TestBoundedTextAsEngine: the bounded text assembled from the character
// list with nothing recovered (crop.go) is the engine's own bounded text
// unit for unit, on cropped pages of one shared content stream
// (qpdf-cropped.pdf) and on pages cropped across lines and words with
// fonts without a map (qpdf-cropglyphs.pdf), so recovering glyphs on a
// cropped page changes only the recovered characters.
func TestBoundedTextAsEngine(t *testing.T) {
	for _, file := range []string{"qpdf-cropped.pdf", "qpdf-cropglyphs.pdf"} {
		t.Run(file, func(t *testing.T) {
			engine.Lock()
			defer engine.Unlock()
			inst, err := instance(0, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, size := openTestdata(t, file)
			doc, err := inst.OpenDocument(&requests.OpenDocument{FileReader: f, FileReaderSize: size})
			if err != nil {
				t.Fatal(err)
			}
			defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
			n, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
			if err != nil {
				t.Fatal(err)
			}
			for i := range n.PageCount {
				pg, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc.Document, Index: i})
				if err != nil {
					t.Fatal(err)
				}
				ref := requests.Page{ByReference: &pg.Page}
				box, ok := cropped(inst, ref)
				if !ok {
					t.Fatalf("page %d is not cropped", i+1)
				}
				tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: ref})
				if err != nil {
					t.Fatal(err)
				}
				chars, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
				if err != nil {
					t.Fatal(err)
				}
				want, err := inst.FPDFText_GetBoundedText(&requests.FPDFText_GetBoundedText{
					TextPage: tp.TextPage, Left: box.left, Top: box.top, Right: box.right, Bottom: box.bottom,
				})
				if err != nil {
					t.Fatal(err)
				}
				pc, _ := pageChars(inst, tp.TextPage, chars.Count, &fontCache{})
				at, ok := boundedChars(inst, tp.TextPage, pc)
				if !ok {
					t.Fatalf("page %d: characters not read", i+1)
				}
				got := boundedText(at, normRect(box))
				if got != want.Text || got == "" {
					t.Errorf("page %d: assembled %q, engine %q", i+1, got, want.Text)
				}
				inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
				inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: pg.Page})
			}
		})
	}
}

func TestBoundedText(t *testing.T) {
	box := rect{left: 0, bottom: 0, right: 100, top: 100}
	in := func(x, y float64) rect { return rect{x, y, x + 5, y + 10} }
	tests := []struct {
		name  string
		chars []boundedChar
		want  string
	}{
		{"inside, recovered, dropped", []boundedChar{
			{code: 'A', box: in(10, 50), y: 50},
			{code: '!', box: in(15, 50), y: 50, text: "fi", recovered: true},
			{code: 3, box: in(20, 50), y: 50, recovered: true},
			{code: 0, box: in(25, 50), y: 50},
		}, "Afi"},
		{"a line outside, then one inside", []boundedChar{
			{code: 'X', box: in(10, 150), y: 150},
			{code: '\r', box: rect{}, y: 0},
			{code: '\n', box: rect{}, y: 0},
			{code: 'B', box: in(10, 50), y: 50},
			{code: 'C', box: in(150, 50), y: 50},
			{code: ' ', box: in(155, 50), y: 50},
			{code: 'D', box: in(10, 30), y: 30},
		}, "B\r\nD"},
		{"a space after an inside character", []boundedChar{
			{code: 'E', box: in(90, 50), y: 50},
			{code: ' ', box: in(100, 50), y: 50},
			{code: ' ', box: in(105, 50), y: 50},
			{code: 'F', box: in(110, 50), y: 50},
		}, "E "},
		{"touching edges are outside", []boundedChar{{code: 'G', box: in(100, 50), y: 50}}, ""},
		{"a character outside the BMP", []boundedChar{{code: 0x20b9f, box: in(10, 50), y: 50}}, "𠮟"},
	}
	for _, tt := range tests {
		if got := boundedText(tt.chars, box); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
