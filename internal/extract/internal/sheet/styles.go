package sheet

import (
	"strconv"

	"github.com/fumibako/fumibako/internal/extract/internal/numfmt"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// Styles maps a cell's style index (c@s, an index into cellXfs) to its
// compiled number format. Excel shows the format of the xf's numFmtId
// whatever applyNumberFormat says; an unknown id is General.
type Styles struct {
	XfFmt   []int          // numFmtId per cellXfs entry
	Codes   map[int]string // custom numFmt codes by id
	ByID    map[int]*numfmt.Format
	general *numfmt.Format
}

func NewStyles() *Styles {
	return &Styles{Codes: map[int]string{}, ByID: map[int]*numfmt.Format{}, general: &numfmt.Format{General: true}}
}

// Format returns the compiled format of style index s.
func (st *Styles) Format(s int) *numfmt.Format {
	if s < 0 || s >= len(st.XfFmt) {
		return st.general
	}
	id := st.XfFmt[s]
	if f, ok := st.ByID[id]; ok {
		return f
	}
	code, ok := st.Codes[id]
	if !ok {
		code, ok = numfmt.BuiltinFormats[id]
	}
	f := st.general
	if ok {
		f = numfmt.Compile(code)
	}
	st.ByID[id] = f
	return f
}

// ReadStyles reads numFmts and cellXfs of xl/styles.xml.
func ReadStyles(p *ooxml.Pkg, part string) (*Styles, error) {
	st := NewStyles()
	inXfs := false
	err := p.EachScanned(part, func(d *xmlscan.Scanner) error {
		switch d.Kind {
		case xmlscan.Start:
			switch string(d.Name) {
			case "numFmt":
				id, err := strconv.Atoi(string(d.Attr("numFmtId")))
				if err == nil {
					st.Codes[id] = string(d.Attr("formatCode"))
				}
			case "cellXfs":
				inXfs = true
			case "xf":
				if inXfs && d.Depth() == 3 {
					id, err := strconv.Atoi(string(d.Attr("numFmtId")))
					if err != nil {
						id = 0
					}
					st.XfFmt = append(st.XfFmt, id)
				}
			}
		case xmlscan.End:
			if string(d.Name) == "cellXfs" {
				inXfs = false
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}
