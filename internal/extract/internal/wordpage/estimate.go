package wordpage

import (
	"golang.org/x/text/width"
)

// Page estimates (issue 16): a Word document without recorded page breaks
// (no w:lastRenderedPageBreak in a package; a .doc, whose binary format
// keeps none) has only its explicit breaks, so a long document written by
// a program that never paginates would land on page 1. Estimate lays its
// body out roughly as LibreOffice would: the text area is the page size
// less the margins of the (last) section; a line holds as many characters
// as fit its width, a full-width character (East Asian wide or fullwidth)
// taking the default font size and any other character half of it; a line
// is the document grid's pitch when the section has a line grid, else the
// font size times a line-height factor (larger when the line holds CJK
// text, whose fonts have taller ascent and descent), scaled by the
// paragraph line spacing; each paragraph adds its spacing before and
// after, and empty paragraphs take one line. A paragraph is on the page
// where its first line falls; an explicit break starts a new page. A table
// row splits the width evenly among its cells and is as tall as its
// tallest cell. Such pages are marked as estimates in their place names
// (Pages.Estimated, EstimateSuffix); TestPageEstimateLibreOffice measures
// the agreement with LibreOffice's own layout.

// Layout is what the estimate needs of a section and the default style;
// lengths in twips (1/1440 inch), the font size in half-points.
type Layout struct {
	PageWidth, PageHeight    int
	Left, Right, Top, Bottom int
	FontSize                 int // half-points (w:sz); 0: 21 (10.5 pt)
	LinePitch                int // w:docGrid w:linePitch of a line grid; 0: none
	Line                     int // w:spacing w:line, 240ths of a line (auto); 0: 240
	Before, After            int // w:spacing w:before / w:after
}

// Para is one body line (paragraph or table row, cells split by TAB) for
// the estimate: its text, its page from explicit breaks, and the empty
// paragraphs right before it.
type Para struct {
	Text  string
	Page  int
	Blank int
}

// Line-height factors of the font size (measured against LibreOffice
// 7.4's default fonts: Liberation/DejaVu for Latin, Noto CJK for Japanese).
const (
	latinLineFactor = 1.17
	cjkLineFactor   = 1.45
)

// normalized fills defaults and bounds every length.
func (l Layout) normalized() Layout {
	def := func(v *int, d, lo, hi int) {
		if *v <= 0 {
			*v = d
		}
		if *v < lo {
			*v = lo
		}
		if *v > hi {
			*v = hi
		}
	}
	def(&l.PageWidth, 11906, 1440, 31680)
	def(&l.PageHeight, 16838, 1440, 31680)
	for _, m := range []*int{&l.Left, &l.Right, &l.Top, &l.Bottom} {
		if *m < 0 || *m > 7200 {
			*m = 1440
		}
	}
	def(&l.FontSize, 21, 2, 400)
	if l.LinePitch < 0 || l.LinePitch > 4000 {
		l.LinePitch = 0
	}
	def(&l.Line, 240, 60, 1440)
	if l.Before < 0 || l.Before > 4000 {
		l.Before = 0
	}
	if l.After < 0 || l.After > 4000 {
		l.After = 0
	}
	return l
}

// Estimate returns the estimated page of each paragraph.
func (l Layout) Estimate(paras []Para) []int {
	l = l.normalized()
	textW := float64(l.PageWidth - l.Left - l.Right)
	textH := float64(l.PageHeight - l.Top - l.Bottom)
	if textW < 720 {
		textW = 720
	}
	if textH < 720 {
		textH = 720
	}
	em := float64(l.FontSize) * 10 // twips: half-points × 20 / 2
	lineH := func(cjk bool) float64 {
		f := latinLineFactor
		if cjk {
			f = cjkLineFactor
		}
		h := em * f * float64(l.Line) / 240
		if p := float64(l.LinePitch); p > 0 && p*float64(l.Line)/240 > h*0.8 {
			h = p * float64(l.Line) / 240
		}
		return h
	}
	space := float64(l.Before + l.After)
	out := make([]int, len(paras))
	extra, explicit := 0, 1
	used := 0.0
	for i, p := range paras {
		if p.Page != explicit {
			explicit, used = p.Page, 0
		}
		for k := 0; k < p.Blank; k++ {
			used += lineH(false) + space
			if used > textH {
				extra++
				used = lineH(false) + space
			}
		}
		lines, cjk := textLines(p.Text, textW, em)
		h := lineH(cjk)
		if used > 0 && used+h > textH {
			extra++
			used = 0
		}
		out[i] = p.Page + extra
		// The lines that fit this page, then whole pages of lines.
		fit := int((textH - used) / h)
		if lines <= fit {
			used += float64(lines)*h + space
			continue
		}
		rest := lines - fit
		perPage := max(1, int(textH/h))
		for rest > perPage {
			extra++
			rest -= perPage
		}
		extra++
		used = float64(rest)*h + space
	}
	return out
}

// textLines returns the lines a paragraph (or a row, cells split by TAB)
// takes in a text area width wide, and whether it holds CJK text. Each
// cell is wrapped greedily: a full-width character may end a line
// anywhere, except that 、。，．」』）etc. do not start one (the character
// before them moves down with them); a run of other characters breaks only
// at spaces, unless it is wider than the line.
func textLines(s string, width, em float64) (int, bool) {
	cells := splitTab(s)
	cellW := max(width/float64(len(cells)), em) // at least a character a line
	most, cjk := 1, false
	for _, c := range cells {
		n, k := wrap(c, cellW, em)
		cjk = cjk || k
		most = max(most, n)
	}
	return most, cjk
}

// Latin advance widths in ems (DejaVu, LibreOffice's fallback for Latin
// text, is wider than Times-like fonts).
const (
	emLower = 0.55
	emUpper = 0.66
	emSpace = 0.32
	emOther = 0.45
)

func advance(r rune, em float64) (float64, bool) {
	switch {
	case wide(r):
		return em, true
	case r == ' ':
		return emSpace * em, false
	case r >= 'a' && r <= 'z':
		return emLower * em, false
	case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		return emUpper * em, false
	}
	return emOther * em, false
}

// noLineStart are the characters Japanese line breaking keeps off the
// start of a line.
const noLineStart = "、。，．・：；？！ー」』）］｝〕〉》】ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"

func wrap(s string, width, em float64) (lines int, cjk bool) {
	lines = 1
	x := 0.0        // width of the current line
	word := 0.0     // width of the pending Latin word
	prevWide := 0.0 // width of the last full-width character on the line
	flush := func() {
		if word == 0 {
			return
		}
		if x > 0 && x+word > width {
			lines++
			x = 0
		}
		if word > width {
			n := int(word / width)
			lines += n
			word -= float64(n) * width
		}
		x += word
		word = 0
	}
	for _, r := range s {
		w, isWide := advance(r, em)
		switch {
		case isWide:
			cjk = true
			flush()
			if x+w > width+0.01 {
				lines++
				x = 0
				if prevWide > 0 && containsRune(noLineStart, r) {
					x = prevWide
				}
			}
			x += w
			prevWide = w
		case r == ' ':
			flush()
			x += w
			prevWide = 0
		default:
			word += w
			prevWide = 0
		}
	}
	flush()
	return lines, cjk
}

func containsRune(s string, r rune) bool {
	for _, c := range s {
		if c == r {
			return true
		}
	}
	return false
}

func splitTab(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\t' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func wide(r rune) bool {
	if r < 0x1100 {
		return false
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return true
	}
	return false
}
