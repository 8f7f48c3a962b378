package extract

import (
	"encoding/xml"
	"strconv"
)

// xlStyles maps a cell's style index (c@s, an index into cellXfs) to its
// compiled number format. Excel shows the format of the xf's numFmtId
// whatever applyNumberFormat says; an unknown id is General.
type xlStyles struct {
	xfFmt   []int          // numFmtId per cellXfs entry
	codes   map[int]string // custom numFmt codes by id
	byID    map[int]*xlFormat
	general *xlFormat
}

func newXlStyles() *xlStyles {
	return &xlStyles{codes: map[int]string{}, byID: map[int]*xlFormat{}, general: &xlFormat{general: true}}
}

// format returns the compiled format of style index s.
func (st *xlStyles) format(s int) *xlFormat {
	if s < 0 || s >= len(st.xfFmt) {
		return st.general
	}
	id := st.xfFmt[s]
	if f, ok := st.byID[id]; ok {
		return f
	}
	code, ok := st.codes[id]
	if !ok {
		code, ok = xlBuiltinFormats[id]
	}
	f := st.general
	if ok {
		f = xlCompile(code)
	}
	st.byID[id] = f
	return f
}

// xlReadStyles reads numFmts and cellXfs of xl/styles.xml.
func xlReadStyles(p *pkg, part string) (*xlStyles, error) {
	st := newXlStyles()
	inXfs := false
	err := p.eachToken(part, func(d *xmlDecoder, tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "numFmt":
				id, err := strconv.Atoi(attr(t, "numFmtId"))
				if err == nil {
					st.codes[id] = attr(t, "formatCode")
				}
			case "cellXfs":
				inXfs = true
			case "xf":
				if inXfs && d.Depth() == 3 {
					id, err := strconv.Atoi(attr(t, "numFmtId"))
					if err != nil {
						id = 0
					}
					st.xfFmt = append(st.xfFmt, id)
				}
			}
		case xml.EndElement:
			if t.Name.Local == "cellXfs" {
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
