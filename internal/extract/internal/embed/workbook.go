package embed

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// A minimal workbook reader for embedded workbooks (reference/
// extraction.md §9): the visible worksheets of xl/workbook.xml in order,
// and of each only the text cells — shared strings (t="s"), inline strings
// (t="inlineStr") and string results of formulas (t="str"). Numbers,
// booleans, errors and hidden sheets are skipped. One line per sheet row
// holding text: its text cells in column order joined by TAB, no
// addresses. Phonetic guides (rPh) are not read; _xHHHH_ escapes are
// decoded; TAB, CR and LF inside a cell become spaces.

func readEmbeddedWorkbook(p *ooxml.Pkg) ([]string, error) {
	const wb = "xl/workbook.xml"
	rels, err := p.RelsOf(wb)
	if err != nil {
		return nil, err
	}
	sheets, err := visibleSheets(p, wb, rels)
	if err != nil {
		return nil, err
	}
	sstPart := "xl/sharedStrings.xml"
	for _, r := range ooxml.SortedRels(rels) {
		if ooxml.RelTypeIs(r.Type, "sharedStrings") && r.Target != "" {
			sstPart = r.Target
			break
		}
	}
	var sst []string
	if p.Has(sstPart) {
		if sst, err = sharedStrings(p, sstPart); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, part := range sheets {
		if !p.Has(part) {
			continue
		}
		lines, err := sheetText(p, part, sst)
		if err != nil {
			return nil, err
		}
		out = append(out, lines...)
	}
	return out, nil
}

// visibleSheets returns the worksheet parts of the visible sheets in
// workbook order.
func visibleSheets(p *ooxml.Pkg, wb string, rels map[string]ooxml.Rel) ([]string, error) {
	var parts []string
	err := p.EachStart(wb, func(_ *ooxml.Decoder, se xml.StartElement) error {
		if !ooxml.IsS(se.Name) || se.Name.Local != "sheet" {
			return nil
		}
		if st := ooxml.Attr(se, "state"); st == "hidden" || st == "veryHidden" {
			return nil
		}
		if r, ok := rels[ooxml.RelAttr(se, "id")]; ok && ooxml.RelTypeIs(r.Type, "worksheet") && r.Target != "" {
			parts = append(parts, r.Target)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return parts, nil
}

// sharedStrings returns the texts of the sst's si items.
func sharedStrings(p *ooxml.Pkg, part string) ([]string, error) {
	var out []string
	err := p.EachStart(part, func(d *ooxml.Decoder, se xml.StartElement) error {
		if !ooxml.IsS(se.Name) || se.Name.Local != "si" {
			return nil
		}
		s, err := richText(d)
		out = append(out, s)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// richText reads the element just started (si, is) and returns its t
// texts outside rPh.
func richText(d *ooxml.Decoder) (string, error) {
	var b strings.Builder
	stop := d.Depth() - 1
	inT := false
	for d.Depth() > stop {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "rPh", "rPr":
				if err := d.Skip(); err != nil {
					return "", err
				}
			case "t":
				inT = true
			}
		case xml.EndElement:
			inT = false
		case xml.CharData:
			if inT {
				b.Write(t)
			}
		}
	}
	return b.String(), nil
}

// sheetText streams one worksheet and returns its text rows.
func sheetText(p *ooxml.Pkg, part string, sst []string) ([]string, error) {
	var (
		out   []string
		row   []string
		typ   string
		inV   bool
		v     strings.Builder
		inRow bool
	)
	cell := func(s string) {
		s = strings.TrimSpace(ooxml.SpaceControls(sheet.Unescape(s)))
		if s != "" {
			row = append(row, s)
		}
	}
	err := p.EachToken(part, func(d *ooxml.Decoder, tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			if !ooxml.IsS(t.Name) {
				return nil
			}
			switch t.Name.Local {
			case "row":
				inRow, row = true, nil
			case "c":
				typ = ooxml.Attr(t, "t")
			case "v":
				inV = inRow
				v.Reset()
			case "is":
				s, err := richText(d)
				if err != nil {
					return err
				}
				if typ == "inlineStr" {
					cell(s)
				}
			case "f", "extLst":
				return d.Skip()
			}
		case xml.EndElement:
			if !ooxml.IsS(t.Name) {
				return nil
			}
			switch t.Name.Local {
			case "v":
				if inV {
					switch typ {
					case "s":
						if i, err := strconv.Atoi(strings.TrimSpace(v.String())); err == nil && i >= 0 && i < len(sst) {
							cell(sst[i])
						}
					case "str":
						cell(v.String())
					}
				}
				inV = false
			case "c":
				typ = ""
			case "row":
				if len(row) > 0 {
					out = append(out, strings.Join(row, "\t"))
				}
				inRow, row = false, nil
			}
		case xml.CharData:
			if inV {
				v.Write(t)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
