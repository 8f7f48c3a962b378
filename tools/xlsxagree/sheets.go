package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"unicode/utf16"

	"github.com/richardlehane/mscfb"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// sheetState is one sheet of a workbook and whether Excel hides it
// (hidden or very hidden).
type sheetState struct {
	name   string
	hidden bool
}

// errUnknownStates is returned when the visibility of the sheets cannot
// be read (an encrypted or unrecognised file).
var errUnknownStates = errors.New("xlsxagree: sheet visibility unknown")

// maxPart bounds what is read of one workbook part or stream.
const maxPart = 64 << 20

// sheetStates lists the sheets of the workbook at p in workbook order,
// whatever its extension says: a ZIP is read as .xlsx (xl/workbook.xml)
// or .xlsb (xl/workbook.bin), a compound file as BIFF5/8.
func sheetStates(p string) ([]sheetState, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	switch {
	case n >= 4 && string(head[:4]) == "PK\x03\x04":
		return zipSheetStates(p)
	case n == 8 && bytes.Equal(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return biffSheetStates(f)
	}
	return nil, errUnknownStates
}

func zipSheetStates(p string) ([]sheetState, error) {
	z, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	parts := map[string]*zip.File{}
	for _, f := range z.File {
		parts[strings.ToLower(f.Name)] = f
	}
	book := officeDocument(parts)
	f := parts[strings.ToLower(book)]
	if f == nil {
		return nil, fmt.Errorf("%s: no workbook part", p)
	}
	b, err := readPart(f)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(strings.ToLower(book), ".bin") {
		return xlsbSheetStates(b)
	}
	return xmlSheetStates(b)
}

// officeDocument is the workbook part named by _rels/.rels, or the usual
// name.
func officeDocument(parts map[string]*zip.File) string {
	if f := parts["_rels/.rels"]; f != nil {
		if b, err := readPart(f); err == nil {
			var rels struct {
				Rel []struct {
					Type   string `xml:"Type,attr"`
					Target string `xml:"Target,attr"`
				} `xml:"Relationship"`
			}
			if xml.Unmarshal(b, &rels) == nil {
				for _, r := range rels.Rel {
					if strings.HasSuffix(r.Type, "/officeDocument") {
						return strings.TrimPrefix(path.Clean("/"+r.Target), "/")
					}
				}
			}
		}
	}
	if parts["xl/workbook.bin"] != nil {
		return "xl/workbook.bin"
	}
	return "xl/workbook.xml"
}

func readPart(f *zip.File) ([]byte, error) {
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

// xmlSheetStates reads the <sheet name state> elements of workbook.xml
// (transitional or strict; any prefix).
func xmlSheetStates(b []byte) ([]sheetState, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	var s []sheetState
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
		var st sheetState
		for _, a := range e.Attr {
			switch a.Name.Local {
			case "name":
				st.name = a.Value
			case "state":
				st.hidden = a.Value == "hidden" || a.Value == "veryHidden"
			}
		}
		s = append(s, st)
	}
}

// xlsbSheetStates reads the BrtBundleSh records of workbook.bin
// ([MS-XLSB] 2.4.153: hsState u32, iTabID u32, strRelID nullable wide
// string, strName wide string).
func xlsbSheetStates(b []byte) ([]sheetState, error) {
	const brtBundleSh = 0x9C
	var s []sheetState
	for len(b) > 0 {
		typ, n := varint(b, 2)
		if n == 0 {
			break
		}
		size, m := varint(b[n:], 4)
		if m == 0 || n+m+size > len(b) {
			break
		}
		data := b[n+m : n+m+size]
		b = b[n+m+size:]
		if typ != brtBundleSh || len(data) < 12 {
			continue
		}
		state := binary.LittleEndian.Uint32(data)
		rest := data[8:]
		if _, rest = wideString(rest); rest == nil {
			continue
		}
		name, rest := wideString(rest)
		if rest == nil {
			continue
		}
		s = append(s, sheetState{name: name, hidden: state == 1 || state == 2})
	}
	if s == nil {
		return nil, errUnknownStates
	}
	return s, nil
}

// varint reads an XLSB record type or size: up to max bytes of 7 bits,
// low first. n is 0 when b ends first.
func varint(b []byte, max int) (v, n int) {
	for n < max {
		if n >= len(b) {
			return 0, 0
		}
		v |= int(b[n]&0x7F) << (7 * n)
		n++
		if b[n-1]&0x80 == 0 {
			return v, n
		}
	}
	return v, n
}

// wideString reads a u32 count and that many UTF-16LE units (0xFFFFFFFF:
// null). rest is nil when b is too short.
func wideString(b []byte) (s string, rest []byte) {
	if len(b) < 4 {
		return "", nil
	}
	n := binary.LittleEndian.Uint32(b)
	if n == 0xFFFFFFFF {
		return "", b[4:]
	}
	if uint64(len(b)-4) < 2*uint64(n) {
		return "", nil
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[4+2*i:])
	}
	return string(utf16.Decode(u)), b[4+2*n:]
}

// BIFF records read here ([MS-XLS] 2.3).
const (
	biffBOF        = 0x0809
	biffEOF        = 0x000A
	biffBoundSheet = 0x0085
	biffFilePass   = 0x002F
	biffCodePage   = 0x0042
)

// biffSheetStates reads the BoundSheet records of the workbook globals
// (BIFF8: Workbook stream, names as XLUnicodeString; BIFF5: Book stream,
// names in the CodePage record's code page). An encrypted workbook
// (FilePass) has its states encrypted: errUnknownStates.
func biffSheetStates(r io.ReaderAt) ([]sheetState, error) {
	doc, err := mscfb.New(r)
	if err != nil {
		return nil, err
	}
	var stream []byte
	for e, err := doc.Next(); err == nil; e, err = doc.Next() {
		if len(e.Path) != 0 || !(strings.EqualFold(e.Name, "Workbook") || strings.EqualFold(e.Name, "Book")) {
			continue
		}
		if e.Size > maxPart {
			return nil, errors.New("workbook stream too large")
		}
		if stream, err = io.ReadAll(io.LimitReader(e, maxPart)); err != nil {
			return nil, err
		}
		break
	}
	if stream == nil {
		return nil, errUnknownStates
	}
	var s []sheetState
	biff8 := true
	codepage := 1252
	for off := 0; off+4 <= len(stream); {
		typ := binary.LittleEndian.Uint16(stream[off:])
		size := int(binary.LittleEndian.Uint16(stream[off+2:]))
		if off+4+size > len(stream) {
			break
		}
		data := stream[off+4 : off+4+size]
		off += 4 + size
		switch typ {
		case biffBOF:
			if len(data) >= 2 {
				biff8 = binary.LittleEndian.Uint16(data) >= 0x0600
			}
		case biffFilePass:
			return nil, errUnknownStates
		case biffCodePage:
			if len(data) >= 2 {
				codepage = int(binary.LittleEndian.Uint16(data))
			}
		case biffBoundSheet:
			if len(data) < 7 {
				continue
			}
			s = append(s, sheetState{name: biffName(data[6:], biff8, codepage), hidden: data[4]&3 != 0})
		case biffEOF:
			return s, nil
		}
	}
	return s, nil
}

// biffName decodes a BoundSheet name: cch, then (BIFF8) a flags byte
// whose bit 0 means UTF-16LE rather than Latin-1, or (BIFF5) bytes in the
// workbook's code page.
func biffName(b []byte, biff8 bool, codepage int) string {
	n := int(b[0])
	b = b[1:]
	if !biff8 {
		if n > len(b) {
			n = len(b)
		}
		raw := b[:n]
		dec := charmap.Windows1252.NewDecoder()
		if codepage == 932 {
			dec = japanese.ShiftJIS.NewDecoder()
		}
		if out, err := dec.Bytes(raw); err == nil {
			return string(out)
		}
		return string(raw)
	}
	if len(b) == 0 {
		return ""
	}
	wide := b[0]&1 != 0
	b = b[1:]
	if !wide {
		if n > len(b) {
			n = len(b)
		}
		out, _ := charmap.ISO8859_1.NewDecoder().Bytes(b[:n])
		return string(out)
	}
	if 2*n > len(b) {
		n = len(b) / 2
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}
