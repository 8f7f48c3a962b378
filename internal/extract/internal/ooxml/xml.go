package ooxml

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// Namespace URIs of the OOXML vocabularies the readers look at, in their
// transitional and strict (ISO 29500 strict, purl.oclc.org) spellings.
const (
	nsW    = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsWS   = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	nsA    = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsAS   = "http://purl.oclc.org/ooxml/drawingml/main"
	nsP    = "http://schemas.openxmlformats.org/presentationml/2006/main"
	nsPS   = "http://purl.oclc.org/ooxml/presentationml/main"
	nsR    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	nsRS   = "http://purl.oclc.org/ooxml/officeDocument/relationships"
	nsC    = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsCS   = "http://purl.oclc.org/ooxml/drawingml/chart"
	nsDgm  = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
	nsDgmS = "http://purl.oclc.org/ooxml/drawingml/diagram"
	nsMC   = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsO    = "urn:schemas-microsoft-com:office:office"
	nsS    = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	nsSS   = "http://purl.oclc.org/ooxml/spreadsheetml/main"
)

func IsW(n xml.Name) bool   { return n.Space == nsW || n.Space == nsWS }
func isA(n xml.Name) bool   { return n.Space == nsA || n.Space == nsAS }
func IsP(n xml.Name) bool   { return n.Space == nsP || n.Space == nsPS }
func isC(n xml.Name) bool   { return n.Space == nsC || n.Space == nsCS }
func isDgm(n xml.Name) bool { return n.Space == nsDgm || n.Space == nsDgmS }
func IsMC(n xml.Name) bool  { return n.Space == nsMC }

// IsMCSpace reports whether a namespace URI is markup compatibility's
// (for parts walked with xmlscan).
func IsMCSpace(uri string) bool { return uri == nsMC }
func isR(space string) bool     { return space == nsR || space == nsRS }
func IsS(n xml.Name) bool       { return n.Space == nsS || n.Space == nsSS }

// Decoder streams one XML part through encoding/xml with namespaces
// resolved (Name.Space is the URI), refusing DTDs and element nesting
// deeper than a limit. Token returns the same tokens as xml.Decoder.Token;
// CharData is only valid until the next call.
type Decoder struct {
	// BareDoctype lets a DOCTYPE without an internal subset through (it
	// is returned as its xml.Directive): OpenOffice.org 2.x writes
	// `<!DOCTYPE manifest:manifest PUBLIC "-//OpenOffice.org//DTD
	// Manifest 1.0//EN" "Manifest.dtd">` into every package's manifest
	// (issue 33). Nothing is loaded from the external identifier
	// (encoding/xml never reads one), and entity declarations can only
	// sit in an internal subset (`[...]`), which stays refused.
	BareDoctype bool
	d           *xml.Decoder
	depth       int
	max         int
}

func NewDecoder(r io.Reader, maxDepth int) *Decoder {
	if maxDepth <= 0 {
		maxDepth = extract.DefaultLimits.XMLDepth
	}
	d := xml.NewDecoder(r)
	d.Strict = true
	d.CharsetReader = xmlscan.CharsetReader
	return &Decoder{d: d, max: maxDepth}
}

// Token returns the next token. Errors carry the input offset.
func (x *Decoder) Token() (xml.Token, error) {
	tok, err := x.d.Token()
	if err != nil {
		if err == io.EOF {
			if x.depth != 0 {
				return nil, fmt.Errorf("offset %d: unexpected end of XML", x.d.InputOffset())
			}
			return nil, io.EOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case xml.StartElement:
		x.depth++
		if x.depth > x.max {
			return nil, fmt.Errorf("offset %d: XML nesting deeper than %d elements", x.d.InputOffset(), x.max)
		}
	case xml.EndElement:
		x.depth--
	case xml.Directive:
		if s := strings.TrimSpace(string(t)); len(s) >= 7 && strings.EqualFold(s[:7], "DOCTYPE") {
			if !x.BareDoctype || strings.ContainsAny(s, "[]<") {
				return nil, fmt.Errorf("offset %d: %w", x.d.InputOffset(), xmlscan.ErrDTD)
			}
		}
	}
	return tok, nil
}

// Depth is the number of elements open after the last token.
func (x *Decoder) Depth() int { return x.depth }

// Skip consumes tokens up to the end of the element whose StartElement was
// returned last.
func (x *Decoder) Skip() error {
	target := x.depth - 1
	for x.depth > target {
		if _, err := x.Token(); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}

// Attr returns the value of the attribute with the given local name in any
// namespace (OOXML attributes such as w:val or r:id are found by local
// name; use attrNS where two namespaces share a local name).
func Attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// RelAttr returns the value of the r:<local> attribute (relationship id).
func RelAttr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local && isR(a.Name.Space) {
			return a.Value
		}
	}
	return ""
}

// isOff reports whether an OOXML boolean attribute value means false.
func isOff(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "off":
		return true
	}
	return false
}
