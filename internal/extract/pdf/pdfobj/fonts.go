package pdfobj

import (
	"errors"
	"strings"
)

// Font is what a font dictionary (PDF 32000 9.5–9.10) says about how its
// codes become text, as far as the reader of a font without a ToUnicode
// map needs it. Of a simple font with a /ToUnicode entry only the entries
// of its own dictionary are read, not its descriptor (Flags, FontFile)
// nor its glyph procedures.
type Font struct {
	Subtype  string // Type1, MMType1, TrueType, Type3, Type0
	BaseFont string // as written, subset tag (ABCDEF+) included
	// Encoding: the /Encoding name (WinAnsiEncoding, Identity-H), or
	// a dictionary's /BaseEncoding and /Differences (code → glyph name).
	Encoding    string
	HasEncoding bool // an /Encoding entry of any form
	Differences map[int]string
	// DifferencesStart is the largest code a number of /Differences
	// sets (where a run of names starts), maxDifferences when the array
	// holds anything but numbers and names.
	DifferencesStart int
	ToUnicode        bool // a /ToUnicode entry
	FirstChar        int
	CharProcs        []string // a Type 3 font's glyph procedures' names
	Flags            int      // the font descriptor's /Flags (9.8.2)
	FontFile         string   // FontFile, FontFile2 or FontFile3: the program embedded
	// A Type 0 font's descendant: its subtype (CIDFontType0/2), its
	// /CIDSystemInfo, and whether its /CIDToGIDMap is /Identity (or
	// absent, which means the same) or a stream.
	CIDSubtype  string
	Registry    string
	Ordering    string
	CIDToGIDMap string // "Identity", "Stream" or ""

	// Ref is the font dictionary's object (zero for a direct one): a
	// document's pages share their fonts, and a reader that checks a
	// font once a document tells them by it.
	Ref Ref

	// The /ToUnicode CMap and the embedded program, resolved only when
	// their data is asked for; a simple font with a map keeps its
	// descriptor unread until Described.
	toUnicode, program, descriptor Object
}

// Described returns the font with its descriptor's entries (Flags,
// FontFile, the program), which font leaves unread for a simple font with
// a ToUnicode map; the font as it is when it has none or they are read.
func (f *File) Described(ft Font) Font {
	if ft.descriptor != nil {
		f.describe(&ft, ft.descriptor)
		ft.descriptor = nil
	}
	return ft
}

// ToUnicodeData returns the data of the font's /ToUnicode CMap.
func (f *File) ToUnicodeData(ft Font) ([]byte, error) {
	s, ok := f.Resolve(ft.toUnicode).(Stream)
	if !ok {
		return nil, errors.New("pdfobj: no ToUnicode stream")
	}
	return f.StreamData(s)
}

// ProgramData returns the data of the font's embedded program (FontFile,
// FontFile2 or FontFile3).
func (f *File) ProgramData(ft Font) ([]byte, error) {
	s, ok := f.Resolve(ft.program).(Stream)
	if !ok {
		return nil, errors.New("pdfobj: no embedded program")
	}
	return f.StreamData(s)
}

// Symbolic is the font descriptor flag of a font whose glyphs are
// outside the standard Latin set (9.8.2, bit 3).
const Symbolic = 1 << 2

// maxFontsPerPage bounds the fonts read for one page, and maxFormDepth
// the form XObjects followed into (a form drawing a form).
const (
	maxFontsPerPage = 1024
	maxFormDepth    = 8
)

// Page is a page of the page tree: its resources (its own, or inherited
// from its ancestors; a reference is kept as such, so that a document's
// pages do not hold all their dictionaries).
type Page struct {
	Resources Object
}

// Pages returns the pages in order.
func (f *File) Pages() []Page {
	root, _ := f.Resolve(f.trailer["Root"]).(Dict)
	var pages []Page
	seen := map[Ref]bool{}
	var walk func(o Object, res Object, depth int)
	walk = func(o Object, res Object, depth int) {
		if r, ok := o.(Ref); ok {
			if seen[r] {
				return
			}
			seen[r] = true
		}
		d, ok := f.Resolve(o).(Dict)
		if !ok || depth > maxDepth || len(pages) >= maxPages {
			return
		}
		if d["Resources"] != nil {
			res = d["Resources"]
		}
		kids, isTree := f.Resolve(d["Kids"]).(Array)
		if !isTree || d["Type"] == Name("Page") {
			pages = append(pages, Page{Resources: res})
			return
		}
		for _, k := range kids {
			walk(k, res, depth+1)
		}
	}
	if root != nil {
		walk(root["Pages"], nil, 0)
	}
	return pages
}

// PageFonts returns the fonts of a page's resources and of the form
// XObjects it draws, each font object once.
func (f *File) PageFonts(page Page) []Font {
	var fonts []Font
	seenFont := map[Ref]bool{}
	seenForm := map[Ref]bool{}
	var walk func(res Object, depth int)
	walk = func(res Object, depth int) {
		rd, ok := f.Resolve(res).(Dict)
		if !ok || depth > maxFormDepth {
			return
		}
		if fd, ok := f.Resolve(rd["Font"]).(Dict); ok {
			for _, fo := range fd {
				if len(fonts) >= maxFontsPerPage {
					return
				}
				r, isRef := fo.(Ref)
				if isRef {
					if seenFont[r] {
						continue
					}
					seenFont[r] = true
					// Pages share their fonts: each is read once.
					if ft, ok := f.fonts[r]; ok {
						fonts = append(fonts, ft)
						continue
					}
				}
				if d, ok := f.Resolve(fo).(Dict); ok {
					ft := f.font(d)
					if isRef {
						ft.Ref = r
						if f.fonts == nil {
							f.fonts = map[Ref]Font{}
						}
						f.fonts[r] = ft
					}
					fonts = append(fonts, ft)
				}
			}
		}
		if xd, ok := f.Resolve(rd["XObject"]).(Dict); ok {
			for _, xo := range xd {
				r, ok := xo.(Ref)
				if !ok || seenForm[r] {
					continue
				}
				seenForm[r] = true
				if s, ok := f.Resolve(r).(Stream); ok && s.Dict["Subtype"] == Name("Form") {
					walk(s.Dict["Resources"], depth+1)
				}
			}
		}
	}
	walk(page.Resources, 0)
	return fonts
}

// font reads a font dictionary.
func (f *File) font(d Dict) Font {
	ft := Font{
		Subtype:  f.name(d["Subtype"]),
		BaseFont: f.name(d["BaseFont"]),
		// A /ToUnicode entry counts as a map without reading it (the
		// engine reads it; a font that has one is left to the engine).
		ToUnicode: d["ToUnicode"] != nil,
		toUnicode: d["ToUnicode"],
	}
	if n, ok := Int(f.Resolve(d["FirstChar"])); ok && n >= 0 && n < 1<<16 {
		ft.FirstChar = int(n)
	}
	switch e := f.Resolve(d["Encoding"]).(type) {
	case Name:
		ft.Encoding, ft.HasEncoding = string(e), true
	case Stream:
		ft.Encoding, ft.HasEncoding = f.name(e.Dict["CMapName"]), true
	case Dict:
		ft.HasEncoding = true
		ft.Encoding = f.name(e["BaseEncoding"])
		ft.Differences, ft.DifferencesStart = f.differences(e["Differences"])
	}
	if ft.ToUnicode && ft.Subtype != "Type0" {
		// A simple font with a map: its descriptor and glyph
		// procedures are not read (pages share few fonts, but a
		// document may have thousands) until asked (Described).
		ft.descriptor = d["FontDescriptor"]
		return ft
	}
	if cp, ok := f.Resolve(d["CharProcs"]).(Dict); ok {
		for k := range cp {
			ft.CharProcs = append(ft.CharProcs, string(k))
		}
	}
	desc := d
	if ft.Subtype == "Type0" {
		if a, ok := f.Resolve(d["DescendantFonts"]).(Array); ok && len(a) > 0 {
			if dd, ok := f.Resolve(a[0]).(Dict); ok {
				desc = dd
				ft.CIDSubtype = f.name(dd["Subtype"])
				if si, ok := f.Resolve(dd["CIDSystemInfo"]).(Dict); ok {
					ft.Registry = f.text(si["Registry"])
					ft.Ordering = f.text(si["Ordering"])
				}
				switch m := f.Resolve(dd["CIDToGIDMap"]).(type) {
				case Name:
					ft.CIDToGIDMap = string(m)
				case Stream:
					ft.CIDToGIDMap = "Stream"
				case nil:
					if ft.CIDSubtype == "CIDFontType2" {
						ft.CIDToGIDMap = "Identity"
					}
				}
			}
		}
	}
	f.describe(&ft, desc["FontDescriptor"])
	return ft
}

// describe reads a font descriptor's flags and embedded program into ft.
func (f *File) describe(ft *Font, desc Object) {
	fd, ok := f.Resolve(desc).(Dict)
	if !ok {
		return
	}
	if n, ok := Int(f.Resolve(fd["Flags"])); ok {
		ft.Flags = int(n)
	}
	for _, k := range []Name{"FontFile", "FontFile2", "FontFile3"} {
		if fd[k] != nil {
			ft.FontFile, ft.program = string(k), fd[k]
			break
		}
	}
}

// maxDifferences bounds the codes a /Differences array may name.
const maxDifferences = 1 << 16

// differences reads an encoding's /Differences array: [code name name …
// code name …], each name for the code after the previous one; and the
// largest code a number sets (maxDifferences when something else is in
// the array).
func (f *File) differences(o Object) (map[int]string, int) {
	a, ok := f.Resolve(o).(Array)
	if !ok {
		return nil, 0
	}
	m := map[int]string{}
	code, start := -1, 0
	for _, v := range a {
		switch v := f.Resolve(v).(type) {
		case int64:
			if v < 0 || v >= maxDifferences {
				code, start = -1, maxDifferences
				continue
			}
			code, start = int(v), max(start, int(v))
		case Name:
			if code >= 0 && code < maxDifferences {
				m[code] = string(v)
				code++
			}
		case float64:
			// A real is read as its integer part.
			code, start = -1, maxDifferences
			if n, _ := Int(v); n >= 0 && n < maxDifferences {
				code = int(n)
			}
		default:
			start = maxDifferences
		}
	}
	return m, start
}

func (f *File) name(o Object) string {
	n, _ := f.Resolve(o).(Name)
	return string(n)
}

func (f *File) text(o Object) string {
	s, _ := f.Resolve(o).(String)
	return strings.ToValidUTF8(string(s), "")
}
