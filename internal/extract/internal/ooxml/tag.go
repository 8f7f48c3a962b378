package ooxml

import (
	"encoding/xml"

	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// The line reader (linereader.go) reads a start element as a startTag, so
// that one state machine serves both parsers: ReadLines streams a whole
// part through xmlscan, whose tokens cost no allocation (encoding/xml's
// were 45 % of a worker's time on small .docx and .pptx files, issue 35),
// and ReadElementLines continues inside a part that a caller walks with
// encoding/xml (Excel drawings, comments).

// space is a namespace the line reader tells apart; the transitional and
// strict spellings of a vocabulary are two spaces, as their URIs are.
type space uint8

const (
	spOther space = iota
	spW
	spWS
	spA
	spAS
	spP
	spPS
	spC
	spCS
	spDgm
	spDgmS
	spMC
	spO
)

// spaceOf returns the space of a namespace URI.
func spaceOf(uri string) space {
	switch uri {
	case nsW:
		return spW
	case nsWS:
		return spWS
	case nsA:
		return spA
	case nsAS:
		return spAS
	case nsP:
		return spP
	case nsPS:
		return spPS
	case nsC:
		return spC
	case nsCS:
		return spCS
	case nsDgm:
		return spDgm
	case nsDgmS:
		return spDgmS
	case nsMC:
		return spMC
	case nsO:
		return spO
	}
	return spOther
}

func (s space) isW() bool   { return s == spW || s == spWS }
func (s space) isA() bool   { return s == spA || s == spAS }
func (s space) isP() bool   { return s == spP || s == spPS }
func (s space) isC() bool   { return s == spC || s == spCS }
func (s space) isDgm() bool { return s == spDgm || s == spDgmS }

// startTag is a start element: its space, its local name (valid until
// the parser moves on) and its attributes.
type startTag struct {
	space space
	local []byte
	attrs attrSource
}

// attrSource looks up a start element's attributes by local name: attr
// in any namespace, rel in the relationships namespace (r:id).
type attrSource interface {
	attr(local string) string
	rel(local string) string
}

func (t startTag) attr(local string) string { return t.attrs.attr(local) }
func (t startTag) rel(local string) string  { return t.attrs.rel(local) }

// scanAttrs reads the attributes of xmlscan's current start element.
type scanAttrs struct{ s *xmlscan.Scanner }

func (a scanAttrs) attr(local string) string { return string(a.s.Attr(local)) }

func (a scanAttrs) rel(local string) string {
	var v string
	a.s.EachAttr(func(prefix, name, value []byte) bool {
		if string(name) == local && isR(a.s.Resolve(prefix)) {
			v = string(value)
			return false
		}
		return true
	})
	return v
}

func scanTag(s *xmlscan.Scanner) startTag {
	return startTag{spaceOf(s.Space()), s.Name, scanAttrs{s}}
}

// scanRoot returns xmlscan's current start element as encoding/xml's
// StartElement (xmlLines.Root), names resolved as encoding/xml resolves
// them.
func scanRoot(s *xmlscan.Scanner) xml.StartElement {
	se := xml.StartElement{Name: xml.Name{Space: s.Space(), Local: string(s.Name)}}
	s.EachAttr(func(prefix, name, value []byte) bool {
		se.Attr = append(se.Attr, xml.Attr{Name: xml.Name{Space: s.Resolve(prefix), Local: string(name)}, Value: string(value)})
		return true
	})
	return se
}

// stdAttrs reads the attributes of an encoding/xml start element.
type stdAttrs struct{ se *xml.StartElement }

func (a stdAttrs) attr(local string) string { return Attr(*a.se, local) }
func (a stdAttrs) rel(local string) string  { return RelAttr(*a.se, local) }

func stdTag(se *xml.StartElement) startTag {
	return startTag{spaceOf(se.Name.Space), []byte(se.Name.Local), stdAttrs{se}}
}
