package pdfobj

import (
	"bytes"
	"errors"
	"strconv"
)

// Object is a PDF object: nil (null), bool, int64, float64, Name, String,
// Array, Dict, Ref or Stream.
type Object any

// Name is a name object without its slash, #xx escapes decoded.
type Name string

// String is a string object's bytes (literal escapes or hex decoded).
type String string

// Array is an array object.
type Array []Object

// Dict is a dictionary object.
type Dict map[Name]Object

// Ref is an indirect reference `num gen R`.
type Ref struct{ Num, Gen int }

// Stream is a stream object: its dictionary and the offset in the file
// where its data starts.
type Stream struct {
	Dict   Dict
	offset int64
	// num and gen are the indirect object holding the stream (an
	// encrypted file's data is decrypted with its key, crypt.go).
	num, gen int
}

// Limits on what one file may make the reader do.
const (
	maxDepth       = 32       // nesting of arrays and dictionaries
	maxObjectBytes = 4 << 20  // bytes one object (without stream data) may span
	maxStreamBytes = 32 << 20 // bytes one stream may inflate to
)

var errSyntax = errors.New("pdfobj: syntax error")

// parser reads objects from a byte slice.
type parser struct {
	b   []byte
	pos int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// skip moves past white space and comments.
func (p *parser) skip() {
	for p.pos < len(p.b) {
		c := p.b[p.pos]
		switch {
		case isSpace(c):
			p.pos++
		case c == '%':
			for p.pos < len(p.b) && p.b[p.pos] != '\n' && p.b[p.pos] != '\r' {
				p.pos++
			}
		default:
			return
		}
	}
}

// word returns the regular characters at pos (a number, a keyword).
func (p *parser) word() []byte {
	start := p.pos
	for p.pos < len(p.b) && !isSpace(p.b[p.pos]) && !isDelim(p.b[p.pos]) {
		p.pos++
	}
	return p.b[start:p.pos]
}

// keyword reports whether the next word is kw, and moves past it if so.
func (p *parser) keyword(kw string) bool {
	p.skip()
	save := p.pos
	if string(p.word()) == kw {
		return true
	}
	p.pos = save
	return false
}

// object parses one object at pos; a reference `n g R` is returned as a
// Ref. Stream data is not parsed here (File.parseAt does).
func (p *parser) object(depth int) (Object, error) {
	if depth > maxDepth {
		return nil, errors.New("pdfobj: objects nested too deep")
	}
	p.skip()
	if p.pos >= len(p.b) {
		return nil, errSyntax
	}
	switch c := p.b[p.pos]; {
	case c == '/':
		p.pos++
		return p.name(), nil
	case c == '(':
		p.pos++
		return p.literal()
	case c == '<' && p.pos+1 < len(p.b) && p.b[p.pos+1] == '<':
		p.pos += 2
		return p.dict(depth)
	case c == '<':
		p.pos++
		return p.hex()
	case c == '[':
		p.pos++
		var a Array
		for {
			p.skip()
			if p.pos >= len(p.b) {
				return nil, errSyntax
			}
			if p.b[p.pos] == ']' {
				p.pos++
				return a, nil
			}
			o, err := p.object(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, o)
		}
	case isDelim(c):
		p.pos++
		return nil, errSyntax
	}
	w := p.word()
	switch string(w) {
	case "null":
		return nil, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if n, err := strconv.ParseInt(string(w), 10, 64); err == nil {
		// `n g R` is a reference.
		save := p.pos
		p.skip()
		if g, err := strconv.ParseInt(string(p.word()), 10, 32); err == nil && g >= 0 && n >= 0 && n < 1<<31 {
			if p.keyword("R") {
				return Ref{int(n), int(g)}, nil
			}
		}
		p.pos = save
		return n, nil
	}
	if f, err := strconv.ParseFloat(string(w), 64); err == nil {
		return f, nil
	}
	if len(w) == 0 {
		p.pos++
	}
	return nil, errSyntax
}

func (p *parser) dict(depth int) (Object, error) {
	d := Dict{}
	for {
		p.skip()
		if p.pos+1 < len(p.b) && p.b[p.pos] == '>' && p.b[p.pos+1] == '>' {
			p.pos += 2
			return d, nil
		}
		if p.pos >= len(p.b) || p.b[p.pos] != '/' {
			return nil, errSyntax
		}
		p.pos++
		k := p.name()
		v, err := p.object(depth + 1)
		if err != nil {
			return nil, err
		}
		d[k] = v
	}
}

func (p *parser) name() Name {
	w := p.word()
	if bytes.IndexByte(w, '#') < 0 {
		return Name(w)
	}
	var b []byte
	for i := 0; i < len(w); i++ {
		if w[i] == '#' && i+2 < len(w) {
			if v, err := strconv.ParseUint(string(w[i+1:i+3]), 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, w[i])
	}
	return Name(b)
}

func (p *parser) literal() (Object, error) {
	var b []byte
	depth := 1
	for p.pos < len(p.b) {
		c := p.b[p.pos]
		p.pos++
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return String(b), nil
			}
		case '\\':
			if p.pos >= len(p.b) {
				return nil, errSyntax
			}
			c = p.b[p.pos]
			p.pos++
			switch c {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if p.pos < len(p.b) && p.b[p.pos] == '\n' {
					p.pos++
				}
				continue
			case '\n':
				continue
			default:
				if c >= '0' && c <= '7' {
					v := int(c - '0')
					for k := 0; k < 2 && p.pos < len(p.b) && p.b[p.pos] >= '0' && p.b[p.pos] <= '7'; k++ {
						v = v*8 + int(p.b[p.pos]-'0')
						p.pos++
					}
					c = byte(v)
				}
			}
		}
		b = append(b, c)
	}
	return nil, errSyntax
}

func (p *parser) hex() (Object, error) {
	var b []byte
	half, odd := byte(0), false
	for p.pos < len(p.b) {
		c := p.b[p.pos]
		p.pos++
		var v byte
		switch {
		case c == '>':
			if odd {
				b = append(b, half<<4)
			}
			return String(b), nil
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		case isSpace(c):
			continue
		default:
			return nil, errSyntax
		}
		if odd {
			b = append(b, half<<4|v)
		} else {
			half = v
		}
		odd = !odd
	}
	return nil, errSyntax
}

// Int returns o as an integer (a real is truncated).
func Int(o Object) (int64, bool) {
	switch v := o.(type) {
	case int64:
		return v, true
	case float64:
		if v > -1e15 && v < 1e15 {
			return int64(v), true
		}
	}
	return 0, false
}
