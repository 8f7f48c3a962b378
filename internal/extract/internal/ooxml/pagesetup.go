package ooxml

import "strconv"

// PageSetup is what the Word page estimate reads of a body: the last
// w:pgSz (w:w, w:h), w:pgMar (w:left, w:right, w:top, w:bottom) and
// w:docGrid (w:linePitch of a grid of type "lines" or "linesAndChars"),
// in twips. The body's final w:sectPr comes last, so it wins; 0 is unset.
type PageSetup struct {
	Width, Height            int
	Left, Right, Top, Bottom int
	LinePitch                int
}

func (s *PageSetup) read(t startTag) {
	num := func(name string) int {
		v, err := strconv.Atoi(t.attr(name))
		if err != nil || v < 0 {
			return 0
		}
		return v
	}
	switch string(t.local) {
	case "pgSz":
		s.Width, s.Height = num("w"), num("h")
	case "pgMar":
		s.Left, s.Right, s.Top, s.Bottom = num("left"), num("right"), num("top"), num("bottom")
	case "docGrid":
		s.LinePitch = 0
		if t := t.attr("type"); t == "lines" || t == "linesAndChars" || t == "snapToChars" {
			s.LinePitch = num("linePitch")
		}
	}
}

// Lines names what ReadLines returns, for readers that adjust its
// pages (the Word page estimate).
type Lines = xmlLines
