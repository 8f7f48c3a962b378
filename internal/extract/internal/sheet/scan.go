package sheet

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
)

// Scanner is a small pull parser for the workbook parts that can be
// huge (worksheets, shared strings) and their small relatives (comments,
// chart sheets). encoding/xml allocates for every token, which made it
// most of the cost of reading a sheet; this parser hands out views into
// its buffers instead. It reads what these parts contain: elements with
// attributes, character data with the five predefined entities and
// character references, CDATA sections, comments and processing
// instructions. XML line endings are normalised (CRLF and CR read as LF)
// as the XML specification requires. It refuses DTDs, unknown entities,
// invalid UTF-8, mismatched end elements and nesting deeper than a limit.
// A part whose XML declaration names another encoding than UTF-8 is
// decoded first (ooxml.CharsetReader). Names are matched by local name: a prefix
// (x:c) is dropped.
type Scanner struct {
	r     *bufio.Reader
	max   int
	names []byte // open element names (local), back to back
	ends  []int  // end offset of each open name in names

	Kind scanKind
	// name is the local name of the current start or end element, text
	// the decoded character data of a text token, attrs the raw attribute
	// text of a start element; all are valid until the next call.
	Name, text, attrs []byte
	PendingEnd        bool // the last start element was empty (<c/>): its end comes next
	pendingTag        bool // the '<' of the next tag has been read

	tag, raw, dec, acc []byte // scratch buffers
	off                int64
}

type scanKind uint8

const (
	ScanStart scanKind = iota + 1
	scanEnd
	scanText
)

func NewScanner(r io.Reader, maxDepth int) (*Scanner, error) {
	if maxDepth <= 0 {
		maxDepth = extract.DefaultLimits.XMLDepth
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	if bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")) {
		br.Discard(3)
		head = head[3:]
	}
	if bytes.HasPrefix(head, []byte{0xFE, 0xFF}) || bytes.HasPrefix(head, []byte{0xFF, 0xFE}) {
		return nil, errors.New("UTF-16 XML is not supported")
	}
	if label := declaredEncoding(head); label != "" {
		cr, err := ooxml.CharsetReader(label, br)
		if err != nil {
			return nil, err
		}
		br = bufio.NewReaderSize(cr, 64<<10)
	}
	return &Scanner{r: br, max: maxDepth}, nil
}

// declaredEncoding returns the encoding named by an XML declaration
// unless it is UTF-8 (or absent).
func declaredEncoding(head []byte) string {
	if !bytes.HasPrefix(head, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(head, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := head[:end]
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) < 2 || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	j := bytes.IndexByte(rest[1:], rest[0])
	if j < 0 {
		return ""
	}
	label := rest[1 : 1+j]
	if bytes.EqualFold(label, []byte("utf-8")) || bytes.EqualFold(label, []byte("utf8")) || len(label) == 0 {
		return ""
	}
	return string(label)
}

func (s *Scanner) errorf(format string, a ...any) error {
	return fmt.Errorf("offset %d: "+format, append([]any{s.off}, a...)...)
}

// Depth is the number of open elements; a start element counts as open
// until its end element has been returned.
func (s *Scanner) Depth() int { return len(s.ends) }

// Next moves to the next start element, end element or non-empty text
// inside the root element. It returns io.EOF after the document.
func (s *Scanner) Next() error {
	if s.PendingEnd {
		s.PendingEnd = false
		s.Kind = scanEnd
		return s.pop(s.Name)
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
				if len(s.text) > 0 {
					s.Kind = scanText
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
		s.Name = localName(trimSpace(s.tag[:len(s.tag)-1]))
		s.Kind = scanEnd
		return true, s.pop(s.Name)
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
			s.Kind = scanText
			return len(s.text) > 0, nil
		case len(head) >= 7 && bytes.EqualFold(head, []byte("DOCTYPE")):
			return false, s.errorf("%w", ooxml.ErrDTD)
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
	s.Name = localName(t[:end])
	s.attrs = t[end:]
	s.Kind = ScanStart
	if len(s.ends) >= s.max {
		return s.errorf("XML nesting deeper than %d elements", s.max)
	}
	s.names = append(s.names, s.Name...)
	s.ends = append(s.ends, len(s.names))
	s.PendingEnd = self
	if !utf8.Valid(t) {
		return s.errorf("invalid UTF-8")
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
	return nil
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// localName drops a namespace prefix (as encoding/xml splits names: at
// the first colon, when both sides are non-empty).
func localName(n []byte) []byte {
	if i := bytes.IndexByte(n, ':'); i >= 1 && i < len(n)-1 {
		return n[i+1:]
	}
	return n
}

// decode sets s.text to raw with line endings normalised and, when
// entities is set, entity and character references replaced.
func (s *Scanner) decode(raw []byte, entities bool) error {
	if bytes.IndexByte(raw, '\r') < 0 && (!entities || bytes.IndexByte(raw, '&') < 0) {
		if !utf8.Valid(raw) {
			return s.errorf("invalid UTF-8")
		}
		s.text = raw
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
	s.text = out
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
	a := s.attrs
	for len(a) > 0 {
		i := 0
		for i < len(a) && isSpace(a[i]) {
			i++
		}
		a = a[i:]
		eq := bytes.IndexByte(a, '=')
		if eq < 0 {
			return nil
		}
		name := localName(trimSpace(a[:eq]))
		a = trimSpace(a[eq+1:])
		if len(a) == 0 || (a[0] != '"' && a[0] != '\'') {
			return nil
		}
		q := a[0]
		end := bytes.IndexByte(a[1:], q)
		if end < 0 {
			return nil
		}
		val := a[1 : 1+end]
		a = a[2+end:]
		if string(name) == local {
			if bytes.IndexByte(val, '&') >= 0 {
				if v, err := unentity(nil, val, true); err == nil {
					return v
				}
				return nil
			}
			return val
		}
	}
	return nil
}

// Skip consumes the rest of the current start element up to its end.
func (s *Scanner) Skip() error {
	target := len(s.ends) - 1
	for len(s.ends) > target {
		if err := s.Next(); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}
