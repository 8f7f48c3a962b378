package main

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// sheetInfo is what the report needs to know of one sheet beyond the
// display values: whether Excel hides it (hidden or very hidden), which
// cells hold formulas, and whether it holds a pivot table. The last two
// name the cause of a difference: LibreOffice recalculates some formulas
// on load and rebuilds pivot tables, while fumibako shows the values
// saved in the file.
type sheetInfo struct {
	name     string
	hidden   bool
	formulas map[cellPos]bool
	pivot    bool
}

// cellPos is a 1-based row and column.
type cellPos struct{ row, col int }

func (s *sheetInfo) formula(p cellPos) bool { return s != nil && s.formulas[p] }

func (s *sheetInfo) hasPivot() bool { return s != nil && s.pivot }

// errUnknownSheets is returned when the sheets cannot be read (an
// encrypted or unrecognised file).
var errUnknownSheets = errors.New("xlsxagree: sheets unknown")

// maxPart bounds what is read of one workbook part or stream.
const maxPart = 256 << 20

// readSheets lists the sheets of the workbook at p in workbook order,
// whatever its extension says: a ZIP is read as .xlsx (xl/workbook.xml)
// or .xlsb (xl/workbook.bin), a compound file as BIFF5/8. Formulas and
// pivot tables are best effort: a sheet part that cannot be read keeps
// its name and state.
func readSheets(p string) ([]sheetInfo, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	switch {
	case n >= 4 && string(head[:4]) == "PK\x03\x04":
		return zipSheets(p)
	case n == 8 && bytes.Equal(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		st, err := f.Stat()
		if err != nil {
			return nil, err
		}
		return biffSheets(f, st.Size())
	}
	return nil, errUnknownSheets
}

// pkg is an open OOXML package with its parts by lower-case name.
type pkg struct {
	parts map[string]*zip.File
}

func (k pkg) read(name string) ([]byte, error) {
	f := k.parts[strings.ToLower(name)]
	if f == nil {
		return nil, fmt.Errorf("no part %s", name)
	}
	if f.UncompressedSize64 > maxPart {
		return nil, fmt.Errorf("%s: part too large", f.Name)
	}
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, maxPart))
}

// relationship is one entry of a .rels part, its target resolved to a
// part name.
type relationship struct{ id, typ, target string }

// rels reads the relationships of part (none when it has no .rels).
func (k pkg) rels(part string) []relationship {
	dir, base := path.Split(part)
	b, err := k.read(dir + "_rels/" + base + ".rels")
	if err != nil {
		return nil
	}
	var doc struct {
		Rel []struct {
			ID     string `xml:"Id,attr"`
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
			Mode   string `xml:"TargetMode,attr"`
		} `xml:"Relationship"`
	}
	if xml.Unmarshal(b, &doc) != nil {
		return nil
	}
	var out []relationship
	for _, r := range doc.Rel {
		if r.Mode == "External" {
			continue
		}
		t := r.Target
		if !strings.HasPrefix(t, "/") {
			t = "/" + dir + t
		}
		out = append(out, relationship{id: r.ID, typ: r.Type, target: strings.TrimPrefix(path.Clean(t), "/")})
	}
	return out
}

func zipSheets(p string) ([]sheetInfo, error) {
	z, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	k := pkg{parts: map[string]*zip.File{}}
	for _, f := range z.File {
		k.parts[strings.ToLower(f.Name)] = f
	}
	book := "xl/workbook.xml"
	if k.parts["xl/workbook.bin"] != nil {
		book = "xl/workbook.bin"
	}
	for _, r := range k.rels("") {
		if strings.HasSuffix(r.typ, "/officeDocument") {
			book = r.target
		}
	}
	b, err := k.read(book)
	if err != nil {
		return nil, err
	}
	targets := map[string]string{}
	for _, r := range k.rels(book) {
		targets[r.id] = r.target
	}
	if strings.HasSuffix(strings.ToLower(book), ".bin") {
		return xlsbSheets(k, b, targets)
	}
	return xmlSheets(k, b, targets)
}

// xmlSheets reads the <sheet name state r:id> elements of workbook.xml
// (transitional or strict; any prefix), each visible worksheet's formula
// cells and whether it holds a pivot table.
func xmlSheets(k pkg, b []byte, targets map[string]string) ([]sheetInfo, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	var s []sheetInfo
	for {
		t, err := d.Token()
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			return nil, err
		}
		e, ok := t.(xml.StartElement)
		if !ok || e.Name.Local != "sheet" {
			continue
		}
		var st sheetInfo
		var rid string
		for _, a := range e.Attr {
			switch {
			case a.Name.Local == "name":
				st.name = a.Value
			case a.Name.Local == "state":
				st.hidden = a.Value == "hidden" || a.Value == "veryHidden"
			case a.Name.Local == "id" && a.Name.Space != "":
				rid = a.Value
			}
		}
		if part := targets[rid]; part != "" && !st.hidden {
			st.formulas, _ = xmlFormulas(k, part)
			st.pivot = slices.ContainsFunc(k.rels(part), func(r relationship) bool {
				return strings.HasSuffix(r.typ, "/pivotTable")
			})
		}
		s = append(s, st)
	}
}

// xmlFormulas lists the cells of a worksheet part that hold an <f>
// element; cells and rows without an r attribute follow the previous
// one.
func xmlFormulas(k pkg, part string) (map[cellPos]bool, error) {
	b, err := k.read(part)
	if err != nil {
		return nil, err
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	out := map[cellPos]bool{}
	var at cellPos
	inCell := false
	for {
		t, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		switch e := t.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "row":
				at.row++
				at.col = 0
				if r, err := strconv.Atoi(attr(e, "r")); err == nil {
					at.row = r
				}
			case "c":
				at.col++
				if p, ok := parseRef(attr(e, "r")); ok {
					at = p
				}
				inCell = true
			case "f":
				if inCell {
					out[at] = true
				}
			}
		case xml.EndElement:
			if e.Name.Local == "c" {
				inCell = false
			}
		}
	}
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// parseRef reads an A1 reference ($ signs allowed).
func parseRef(s string) (cellPos, bool) {
	s = strings.ReplaceAll(s, "$", "")
	var p cellPos
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		p.col = p.col*26 + int(s[i]-'A'+1)
		i++
	}
	r, err := strconv.Atoi(s[i:])
	if i == 0 || err != nil || r < 1 {
		return cellPos{}, false
	}
	p.row = r
	return p, true
}
