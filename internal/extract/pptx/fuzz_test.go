package pptx_test

import (
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"testing"
)

// FuzzPptx fuzzes the reader from small packages covering its paths.
func FuzzPptx(f *testing.F) {
	fixture.FuzzOOXML(f, ".pptx", map[string][]byte{
		"slides": fixture.ZipBytes(f, fixture.PptxParts([]string{"ppt/slides/slide1.xml", "ppt/slides/slide2.xml"},
			fixture.Part{Name: "ppt/slides/slide1.xml", Body: pptxSlideA},
			fixture.Part{Name: "ppt/slides/_rels/slide1.xml.rels", Body: fixture.RelsXML("rIdN", "notesSlide", "../notesSlides/notesSlide1.xml",
				"rIdK", "comments", "../comments/comment1.xml", "rIdC", "chart", "../charts/chart1.xml")},
			fixture.Part{Name: "ppt/notesSlides/notesSlide1.xml", Body: pptxNotes},
			fixture.Part{Name: "ppt/comments/comment1.xml", Body: pptxLegacyComments},
			fixture.Part{Name: "ppt/charts/chart1.xml", Body: fixture.ChartXML},
			fixture.Part{Name: "ppt/slides/slide2.xml", Body: pptxSlideC},
			fixture.Part{Name: "ppt/slides/_rels/slide2.xml.rels", Body: fixture.RelsXML("rIdM", "comments", "../comments/modernComment_1.xml")},
			fixture.Part{Name: "ppt/comments/modernComment_1.xml", Body: pptxModernComments})...),
	})
}
