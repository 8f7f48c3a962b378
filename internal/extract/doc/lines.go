package doc

import (
	"sort"
	"strings"
	"unicode/utf16"
)

// Turning a CP range of a Word binary document into lines, as the OOXML
// paragraph reader does for a package (reference/extraction.md §4):
//
//   - a paragraph ends at 0x0D, at a cell mark 0x07 and at 0x0C (a page
//     break or a section mark; LibreOffice also splits a paragraph there);
//     it becomes one trimmed line, and an empty one disappears;
//   - table paragraphs (sprmPFInTable, depth sprmPItap) gather into cells:
//     a 0x07 that is not the row-end mark (sprmPFTtp) ends a cell, the
//     row-end mark ends the row, which becomes one line of its cells joined
//     by TAB, trailing empty cells removed; the paragraphs of a cell, and
//     everything of a nested table, are joined by spaces;
//   - fields (0x13 code 0x14 result 0x15) keep only their result; TAB and
//     the line break 0x0B become spaces, the non-breaking hyphen 0x1E "-",
//     other characters below U+0020 (pictures, note and comment marks,
//     the optional hyphen) are dropped.
//
// Pages (main document only, §7.2 in explicit mode): the page advances
// after each 0x0C, unless it closes a continuous section, and before a
// paragraph with sprmPFPageBreakBefore once some text was seen. A
// paragraph or row is on the page current at its first text.

// reader holds what line building needs.
type reader struct {
	text     *docText
	papx     *papx
	chpx     *chpx
	sections map[int64]bool // CP after a section mark → the break counts

	// Embedded objects referenced from the main document (collected while
	// pages are counted).
	embeds []embedRef

	// Page state of the main document.
	page    int
	sawText bool
	marks   []mark // page at the start of each paragraph, by CP
}

// mark says that from CP cp on the page is page.
type mark struct {
	cp   int64
	page int
}

// embedRef is a reference to an embedded object: the CP of its
// character and its ObjectPool storage number (an inline object, 0x01), or
// a floating shape (0x08) that may be one.
type embedRef struct {
	cp    int64
	id    uint32
	shape bool
}

// line is one paragraph or table row: its text, page, first CP and the
// empty paragraphs right before it (for page estimates).
type line struct {
	text  string
	page  int
	cp    int64
	blank int
}

// pageAt returns the page of the main-document character at cp (1 when
// pages were not counted or cp is outside).
func (r *reader) pageAt(cp int64) int {
	i := sort.Search(len(r.marks), func(i int) bool { return r.marks[i].cp > cp })
	if i == 0 {
		return 1
	}
	return r.marks[i-1].page
}

// docRow gathers the cells of an open table row.
type docRow struct {
	open    bool
	cp      int64
	cells   []string
	parts   []string // paragraphs of the open cell
	page    int
	hasPage bool
}

// lines converts [from, to) into lines. With pages it counts pages and
// records marks (the main document).
func (r *reader) lines(from, to int64, pages bool) []line {
	units := r.text.slice(from, to)
	var (
		out    []line
		row    docRow
		fields fields
		buf    []uint16
		blank  int // empty paragraphs since the last line
	)
	page := func() int {
		if pages {
			return r.page
		}
		return 1
	}
	flushRow := func() {
		if !row.open {
			return
		}
		if len(row.parts) > 0 {
			row.cells = append(row.cells, strings.Join(row.parts, " "))
		}
		cells := row.cells
		for len(cells) > 0 && cells[len(cells)-1] == "" {
			cells = cells[:len(cells)-1]
		}
		text := strings.TrimRight(strings.Join(cells, "\t"), " \t\r\n\u3000")
		if strings.TrimSpace(text) != "" {
			out = append(out, line{text: text, page: row.page, cp: row.cp, blank: blank})
			blank = 0
		}
		row = docRow{}
	}
	start := 0
	for i, u := range units {
		if u != 0x0D && u != 0x07 && u != 0x0C {
			continue
		}
		cp := from + int64(i)
		props := r.papx.at(r.text.fcOf(cp))
		if pages {
			if props.pageBreakBefore && r.sawText {
				r.page++
			}
			r.marks = append(r.marks, mark{cp: from + int64(start), page: r.page})
		}
		pcp := from + int64(start)
		buf = r.paraText(buf[:0], pcp, cp, &fields, pages)
		text := strings.TrimSpace(string(utf16.Decode(buf)))
		if text != "" && pages {
			r.sawText = true
		}
		start = i + 1
		inTable := props.itap > 0 || (u == 0x07 && len(r.papx.pns) == 0)
		switch {
		case inTable:
			if !row.open {
				row = docRow{open: true, cp: pcp}
			}
			if text != "" {
				row.parts = append(row.parts, text)
				if !row.hasPage {
					row.page, row.hasPage = page(), true
				}
			}
			switch {
			case u == 0x07 && props.ttp:
				flushRow()
			case u == 0x07 && props.itap <= 1:
				row.cells = append(row.cells, strings.Join(row.parts, " "))
				row.parts = nil
			}
		default:
			flushRow()
			if text != "" {
				out = append(out, line{text: text, page: page(), cp: pcp, blank: blank})
				blank = 0
			} else if u == 0x0D {
				blank++
			}
		}
		if u == 0x0C && pages {
			if counts, ok := r.sections[cp+1]; !ok || counts {
				r.page++
			}
		}
	}
	if start < len(units) {
		buf = r.paraText(buf[:0], from+int64(start), from+int64(len(units)), &fields, pages)
		if text := strings.TrimSpace(string(utf16.Decode(buf))); text != "" {
			flushRow()
			if pages {
				r.marks = append(r.marks, mark{cp: from + int64(start), page: r.page})
				r.sawText = true
			}
			out = append(out, line{text: text, page: page(), cp: from + int64(start), blank: blank})
		}
	}
	flushRow()
	return out
}

// maxFieldDepth bounds the field stack; deeper nesting is read as text.
const maxFieldDepth = 256

// maxEmbeds bounds the embedded objects read from one document.
const maxEmbeds = 4096

// maxFieldCode bounds the code kept of a field (for EQ ruby).
const maxFieldCode = 4096

// field is one open field.
type field struct {
	result bool     // the separator 0x14 was seen
	code   []uint16 // its code, while it is the innermost code
}

// fields is the stack of open fields, which may span paragraphs; code
// counts the fields still in their code part.
type fields struct {
	stack []field
	code  int
}

// paraText appends the visible characters of [from, to) to buf: field
// codes and deleted tracked text dropped, controls mapped (see the top of
// this file), special symbol characters replaced by their character. With
// collect it records references to embedded objects.
func (r *reader) paraText(buf []uint16, from, to int64, f *fields, collect bool) []uint16 {
	for cp := from; cp < to; cp++ {
		u := r.text.units[cp]
		var ch char
		if r.chpx != nil {
			ch = r.chpx.at(r.text.fcOf(cp))
		}
		switch u {
		case 0x13:
			if len(f.stack) < maxFieldDepth {
				f.stack = append(f.stack, field{})
				f.code++
			}
			continue
		case 0x14:
			// The separator of an EMBED field carries the object.
			if collect && ch.ole && !ch.deleted && len(r.embeds) < maxEmbeds {
				r.embeds = append(r.embeds, embedRef{cp: cp, id: ch.picLoc})
			}
			if n := len(f.stack); n > 0 && !f.stack[n-1].result {
				f.stack[n-1].result = true
				f.stack[n-1].code = nil
				f.code--
			}
			continue
		case 0x15:
			if n := len(f.stack); n > 0 {
				top := f.stack[n-1]
				f.stack = f.stack[:n-1]
				if !top.result {
					f.code--
					if f.code == 0 {
						buf = append(buf, EQRuby(top.code)...)
					}
				}
			}
			continue
		}
		if ch.deleted {
			continue
		}
		if collect && len(r.embeds) < maxEmbeds {
			switch {
			case u == 0x01 && ch.ole && ch.picLoc != 0:
				r.embeds = append(r.embeds, embedRef{cp: cp, id: ch.picLoc})
			case u == 0x08:
				r.embeds = append(r.embeds, embedRef{cp: cp, shape: true})
			}
		}
		if f.code > 0 {
			if top := &f.stack[len(f.stack)-1]; !top.result && len(top.code) < maxFieldCode {
				top.code = append(top.code, u)
			}
			continue
		}
		switch {
		case u == 0x28 && ch.symbol != 0:
			buf = append(buf, ch.symbol)
		case u == 0x09 || u == 0x0B:
			buf = append(buf, ' ')
		case u == 0x1E:
			buf = append(buf, '-')
		case u < 0x20:
		default:
			buf = append(buf, u)
		}
	}
	return buf
}

// EQRuby returns the text of an EQ field that sets phonetic guides
// (ルビ), such as `EQ \* jc2 \* hps10 \o\ad(\s\up 9(とうきょう),東京)`: the
// guide, then the base text, as LibreOffice turns it into w:ruby and the
// package reader reads w:rt before w:rubyBase. Any other field code gives
// nothing.
func EQRuby(code []uint16) []uint16 {
	s := string(utf16.Decode(code))
	t := strings.TrimSpace(s)
	if len(t) < 2 || !strings.EqualFold(t[:2], "EQ") || !strings.Contains(strings.ToLower(t), `\o`) {
		return nil
	}
	i := strings.Index(t, "(")
	if i < 0 {
		return nil
	}
	var out []rune
	rs := []rune(t[i:])
	for k := 0; k < len(rs); k++ {
		switch c := rs[k]; {
		case c == '\\':
			// A switch: letters, then an optional number.
			k++
			for k < len(rs) && (rs[k] >= 'a' && rs[k] <= 'z' || rs[k] >= 'A' && rs[k] <= 'Z') {
				k++
			}
			for k < len(rs) && rs[k] == ' ' {
				k++
			}
			for k < len(rs) && (rs[k] >= '0' && rs[k] <= '9' || rs[k] == '-') {
				k++
			}
			k--
		case c == '(' || c == ')' || c == ',':
		default:
			out = append(out, c)
		}
	}
	return utf16.Encode([]rune(strings.TrimSpace(string(out))))
}

// joinDocLines joins the texts of lines with spaces (a text box or comment
// becomes one line).
func joinDocLines(lines []line) string {
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		parts = append(parts, strings.ReplaceAll(l.text, "\t", " "))
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}
