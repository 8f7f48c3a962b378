package xmlscan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/extract"
)

// Scanner is a small pull parser for XML parts that can be large
// (worksheets, shared strings, document bodies, slides). encoding/xml
// allocates for every token, which made it most of the cost of reading
// such a part; this parser hands out views into its buffers instead. It
// reads what these parts contain: elements with attributes, character
// data with the five predefined entities and character references, CDATA
// sections, comments and processing instructions. XML line endings are
// normalised (CRLF and CR read as LF) as the XML specification requires.
// It refuses DTDs, unknown entities, invalid UTF-8, mismatched end
// elements and nesting deeper than a limit. A part whose XML declaration
// names another encoding than UTF-8 is decoded first (CharsetReader).
//
// Names split as encoding/xml splits them: at the first colon, when both
// sides are non-empty, into Prefix and Name. With Namespaces set, Space
// resolves the prefix of a start element to its namespace URI.
//
// Where encoding/xml reads a document, the Scanner sees the same
// elements and text (FuzzScanner); it is laxer in what it refuses (it
// does not check names or characters outside the document's text), and
// refuses only what it documents where encoding/xml reads on (DTDs and
// other <! markup, UTF-16).
type Scanner struct {
	r     *bufio.Reader
	max   int
	names []byte // open element names (prefix:local), back to back
	ends  []int  // end offset of each open name in names

	// Namespaces makes the scanner keep the xmlns bindings of the open
	// elements, for Space and Resolve. Set it before the first Next.
	Namespaces bool
	binds      []binding      // the declarations of the open elements, outermost first
	inForce    map[string]int // prefix ("" the default) → its innermost binding in binds
	unbindNext bool           // an element ended: drop its declarations before the next token

	Kind Token
	// Name is the local name and Prefix the prefix of the current start
	// or end element, Data the decoded character data of a text token;
	// all are valid until the next call.
	Name, Prefix, Data []byte
	attrs              []byte // the raw attribute text of a start element
	PendingEnd         bool   // the last start element was empty (<c/>): its end comes next
	pendingTag         bool   // the '<' of the next tag has been read

	qname              []byte // Prefix:Name as written
	tag, raw, dec, acc []byte // scratch buffers
	off                int64

	pooled *bufio.Reader // from readers, until the scan ends
	done   error         // what ended the scan (r is nil)
}

// Token is the kind of what Next moved to.
type Token uint8

const (
	Start Token = iota + 1
	End
	Text
)

// NewScanner returns a scanner of the XML part r, refusing nesting
// deeper than maxDepth elements (extract.DefaultLimits.XMLDepth when 0).
// It reads the XML declaration first, so a part in another encoding than
// UTF-8 is decoded, and UTF-16 refused, before the first token.
func NewScanner(r io.Reader, maxDepth int) (*Scanner, error) {
	if maxDepth <= 0 {
		maxDepth = extract.DefaultLimits.XMLDepth
	}
	s := &Scanner{max: maxDepth}
	s.pooled = readers.Get().(*bufio.Reader)
	s.pooled.Reset(r)
	s.r = s.pooled
	head, _ := s.r.Peek(512)
	if bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")) {
		s.r.Discard(3)
		head = head[3:]
	}
	if bytes.HasPrefix(head, []byte{0xFE, 0xFF}) || bytes.HasPrefix(head, []byte{0xFF, 0xFE}) {
		s.release(nil)
		return nil, errors.New("UTF-16 XML is not supported")
	}
	if label := declaredEncoding(head); label != "" {
		cr, err := CharsetReader(label, s.r)
		if err != nil {
			s.release(nil)
			return nil, err
		}
		s.r = bufio.NewReaderSize(cr, readerSize)
	}
	return s, nil
}

// readerSize is the buffer of a Scanner's reader: text and tags up to it
// are sliced out of the buffer rather than gathered.
const readerSize = 64 << 10

// readers keeps the buffered readers of finished scanners: a .pptx is a
// few dozen small parts, and a new 64 KiB buffer for each, cleared by the
// allocator, cost more than reading them.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readerSize) }}

// release ends the scan with err: Next returns err from now on, and the
// reader goes back to the pool.
func (s *Scanner) release(err error) {
	s.r, s.done = nil, err
	if s.pooled != nil {
		s.pooled.Reset(nil)
		readers.Put(s.pooled)
		s.pooled = nil
	}
}

func (s *Scanner) errorf(format string, a ...any) error {
	return fmt.Errorf("offset %d: "+format, append([]any{s.off}, a...)...)
}

// Depth is the number of open elements; a start element counts as open
// until its end element has been returned.
func (s *Scanner) Depth() int { return len(s.ends) }

// Next moves to the next start element, end element or non-empty text
// inside the root element. It returns io.EOF after the document. An error
// ends the scan: Next returns it again.
func (s *Scanner) Next() error {
	if s.r == nil {
		return s.done
	}
	err := s.next()
	if err != nil {
		s.release(err)
	}
	return err
}

func (s *Scanner) next() error {
	if s.unbindNext {
		s.unbind()
		s.unbindNext = false
	}
	if s.PendingEnd {
		s.PendingEnd = false
		s.Kind = End
		return s.pop(s.qname)
	}
	for {
		if !s.pendingTag {
			s.raw = s.raw[:0]
			for {
				chunk, err := s.r.ReadSlice('<')
				s.off += int64(len(chunk))
				if err == nil {
					s.raw = append(s.raw, chunk[:len(chunk)-1]...)
					break
				}
				s.raw = append(s.raw, chunk...)
				if err == bufio.ErrBufferFull {
					continue
				}
				if err == io.EOF {
					if len(s.ends) != 0 {
						return s.errorf("unexpected end of XML")
					}
					return io.EOF
				}
				return err
			}
			s.pendingTag = true
			if len(s.raw) > 0 && len(s.ends) > 0 {
				if err := s.decode(s.raw, true); err != nil {
					return err
				}
				if len(s.Data) > 0 {
					s.Kind = Text
					return nil
				}
			}
		}
		s.pendingTag = false
		ok, err := s.readTag()
		if err != nil || ok {
			return err
		}
	}
}

// readUntil reads up to and including delim into s.tag.
func (s *Scanner) readUntil(delim string) error {
	last := delim[len(delim)-1]
	for {
		chunk, err := s.r.ReadSlice(last)
		s.off += int64(len(chunk))
		s.tag = append(s.tag, chunk...)
		if err == nil && bytes.HasSuffix(s.tag, []byte(delim)) {
			return nil
		}
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF {
				return s.errorf("unexpected end of XML")
			}
			return err
		}
	}
}

// readTag parses the markup after a '<'. ok reports a token (start, end
// or CDATA text); comments and processing instructions give none.
func (s *Scanner) readTag() (ok bool, err error) {
	s.tag = s.tag[:0]
	c, err := s.r.ReadByte()
	if err != nil {
		return false, s.errorf("unexpected end of XML")
	}
	s.off++
	switch c {
	case '/':
		if err := s.readUntil(">"); err != nil {
			return false, err
		}
		s.setName(trimSpace(s.tag[:len(s.tag)-1]))
		s.Kind = End
		return true, s.pop(s.qname)
	case '?':
		return false, s.readUntil("?>")
	case '!':
		head, _ := s.r.Peek(7)
		switch {
		case bytes.HasPrefix(head, []byte("--")):
			return false, s.readUntil("-->")
		case bytes.HasPrefix(head, []byte("[CDATA[")):
			s.r.Discard(7)
			s.off += 7
			if err := s.readUntil("]]>"); err != nil {
				return false, err
			}
			if len(s.ends) == 0 {
				return false, nil
			}
			if err := s.decode(s.tag[:len(s.tag)-3], false); err != nil {
				return false, err
			}
			s.Kind = Text
			return len(s.Data) > 0, nil
		case len(head) >= 7 && bytes.EqualFold(head, []byte("DOCTYPE")):
			return false, s.errorf("%w", ErrDTD)
		}
		return false, s.errorf("unsupported markup <!%s", head)
	}
	s.tag = append(s.tag, c)
	// A start tag ends at the first '>' outside a quoted attribute value.
	var quote byte
	i := 0
	for {
		for ; i < len(s.tag); i++ {
			b := s.tag[i]
			switch {
			case quote != 0:
				if b == quote {
					quote = 0
				}
			case b == '"' || b == '\'':
				quote = b
			case b == '>':
				return true, s.startTag(s.tag[:i])
			}
		}
		chunk, err := s.r.ReadSlice('>')
		s.off += int64(len(chunk))
		s.tag = append(s.tag, chunk...)
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF {
				return false, s.errorf("unexpected end of XML")
			}
			return false, err
		}
	}
}

// startTag handles the text of a start tag between '<' and '>'.
func (s *Scanner) startTag(t []byte) error {
	self := false
	if n := len(t); n > 0 && t[n-1] == '/' {
		self = true
		t = t[:n-1]
	}
	end := 0
	for end < len(t) && !isSpace(t[end]) {
		end++
	}
	if end == 0 {
		return s.errorf("element without a name")
	}
	s.setName(t[:end])
	s.attrs = t[end:]
	s.Kind = Start
	if len(s.ends) >= s.max {
		return s.errorf("XML nesting deeper than %d elements", s.max)
	}
	s.names = append(s.names, s.qname...)
	s.ends = append(s.ends, len(s.names))
	s.PendingEnd = self
	if !utf8.Valid(t) {
		return s.errorf("invalid UTF-8")
	}
	if s.Namespaces {
		s.bind()
	}
	return nil
}

func (s *Scanner) pop(name []byte) error {
	n := len(s.ends)
	if n == 0 {
		return s.errorf("unexpected end element </%s>", name)
	}
	start := 0
	if n > 1 {
		start = s.ends[n-2]
	}
	if !bytes.Equal(s.names[start:s.ends[n-1]], name) {
		return s.errorf("end element </%s> does not match <%s>", name, s.names[start:s.ends[n-1]])
	}
	s.names = s.names[:start]
	s.ends = s.ends[:n-1]
	// The element's declarations stay in force until the next token, so
	// that Space resolves the end element's prefix too.
	s.unbindNext = s.Namespaces
	return nil
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// splitName splits a name into prefix and local name as encoding/xml
// does: at the first colon, when both sides are non-empty.
func splitName(n []byte) (prefix, local []byte) {
	if i := bytes.IndexByte(n, ':'); i >= 1 && i < len(n)-1 {
		return n[:i], n[i+1:]
	}
	return nil, n
}

// setName makes n the current element's name.
func (s *Scanner) setName(n []byte) {
	s.qname = n
	s.Prefix, s.Name = splitName(n)
}

// decode sets s.Data to raw with line endings normalised and, when
// entities is set, entity and character references replaced.
func (s *Scanner) decode(raw []byte, entities bool) error {
	if bytes.IndexByte(raw, '\r') < 0 && (!entities || bytes.IndexByte(raw, '&') < 0) {
		if !utf8.Valid(raw) {
			return s.errorf("invalid UTF-8")
		}
		s.Data = raw
		return nil
	}
	out, err := unentity(s.dec[:0], raw, entities)
	if err != nil {
		return s.errorf("%v", err)
	}
	s.dec = out
	if !utf8.Valid(out) {
		return s.errorf("invalid UTF-8")
	}
	s.Data = out
	return nil
}

// unentity appends raw to dst with CRLF and CR turned into LF and, when
// entities is set, &lt; &gt; &amp; &quot; &apos; &#N; &#xH; decoded.
func unentity(dst, raw []byte, entities bool) ([]byte, error) {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\r':
			dst = append(dst, '\n')
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
		case c == '&' && entities:
			j := bytes.IndexByte(raw[i:], ';')
			if j < 0 {
				return nil, fmt.Errorf("unterminated entity")
			}
			ent := raw[i+1 : i+j]
			i += j
			switch string(ent) {
			case "lt":
				dst = append(dst, '<')
			case "gt":
				dst = append(dst, '>')
			case "amp":
				dst = append(dst, '&')
			case "quot":
				dst = append(dst, '"')
			case "apos":
				dst = append(dst, '\'')
			default:
				if len(ent) < 2 || ent[0] != '#' {
					return nil, fmt.Errorf("unknown entity &%s;", ent)
				}
				var n uint64
				var err error
				if ent[1] == 'x' || ent[1] == 'X' {
					n, err = strconv.ParseUint(string(ent[2:]), 16, 32)
				} else {
					n, err = strconv.ParseUint(string(ent[1:]), 10, 32)
				}
				if err != nil || n == 0 || n > utf8.MaxRune || (n >= 0xD800 && n < 0xE000) {
					return nil, fmt.Errorf("bad character reference &%s;", ent)
				}
				dst = utf8.AppendRune(dst, rune(n))
			}
		default:
			dst = append(dst, c)
		}
	}
	return dst, nil
}

// Attr returns the value of the attribute with the given local name of the
// current start element (nil when absent). The value is a view valid until
// the next call unless it held references, which are decoded into a new
// slice.
func (s *Scanner) Attr(local string) []byte {
	for a := s.attrs; ; {
		var name, val []byte
		var ok bool
		if name, val, a, ok = nextAttr(a); !ok {
			return nil
		}
		if _, l := splitName(name); string(l) == local {
			return attrValue(val)
		}
	}
}

// nextAttr returns the first attribute of a (raw attribute text) and the
// text after it; ok is false when there is none or it is malformed.
func nextAttr(a []byte) (name, val, rest []byte, ok bool) {
	a = trimSpace(a)
	eq := bytes.IndexByte(a, '=')
	if eq < 0 {
		return nil, nil, nil, false
	}
	name = trimSpace(a[:eq])
	a = trimSpace(a[eq+1:])
	if len(a) == 0 || (a[0] != '"' && a[0] != '\'') {
		return nil, nil, nil, false
	}
	end := bytes.IndexByte(a[1:], a[0])
	if end < 0 {
		return nil, nil, nil, false
	}
	return name, a[1 : 1+end], a[2+end:], true
}

// attrValue decodes a raw attribute value: a view of it, or a new slice
// when it held references (nil when they are malformed).
func attrValue(val []byte) []byte {
	if bytes.IndexByte(val, '&') < 0 {
		return val
	}
	v, err := unentity(nil, val, true)
	if err != nil {
		return nil
	}
	return v
}

// Skip consumes the rest of the current start element up to its end.
func (s *Scanner) Skip() error { return s.EachInElement(func() error { return nil }) }
