package extract

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// xlTokens is the token stream the workbook parsers read: the shared
// xmlDecoder, or xlRawDecoder for the big cell-data parts.
type xlTokens interface {
	Token() (xml.Token, error)
	Depth() int
	Skip() error
}

// xlRawDecoder streams a cell-data part (worksheet, shared strings) with
// encoding/xml's RawToken: element names keep their prefixes instead of
// namespace URIs (the parsers match local names only), which saves the
// namespace bookkeeping on millions of cells. Like xmlDecoder it refuses
// DTDs and nesting deeper than a limit, and it checks that end elements
// match their start elements.
type xlRawDecoder struct {
	d     *xml.Decoder
	stack []xml.Name
	max   int
}

func newXlRawDecoder(r io.Reader, maxDepth int) *xlRawDecoder {
	if maxDepth <= 0 {
		maxDepth = DefaultLimits.XMLDepth
	}
	d := xml.NewDecoder(r)
	d.Strict = true
	d.CharsetReader = xmlCharset
	return &xlRawDecoder{d: d, max: maxDepth}
}

func (x *xlRawDecoder) Token() (xml.Token, error) {
	tok, err := x.d.RawToken()
	if err != nil {
		if err == io.EOF {
			if len(x.stack) != 0 {
				return nil, fmt.Errorf("offset %d: unexpected end of XML", x.d.InputOffset())
			}
			return nil, io.EOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case xml.StartElement:
		if len(x.stack) >= x.max {
			return nil, fmt.Errorf("offset %d: XML nesting deeper than %d elements", x.d.InputOffset(), x.max)
		}
		x.stack = append(x.stack, t.Name)
	case xml.EndElement:
		if len(x.stack) == 0 || x.stack[len(x.stack)-1] != t.Name {
			return nil, fmt.Errorf("offset %d: unexpected end element </%s>", x.d.InputOffset(), t.Name.Local)
		}
		x.stack = x.stack[:len(x.stack)-1]
	case xml.Directive:
		if s := strings.TrimSpace(string(t)); len(s) >= 7 && strings.EqualFold(s[:7], "DOCTYPE") {
			return nil, fmt.Errorf("offset %d: %w", x.d.InputOffset(), errDTD)
		}
	}
	return tok, nil
}

func (x *xlRawDecoder) Depth() int { return len(x.stack) }

func (x *xlRawDecoder) Skip() error {
	target := len(x.stack) - 1
	for len(x.stack) > target {
		if _, err := x.Token(); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}
