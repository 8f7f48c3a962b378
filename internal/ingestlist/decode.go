package ingestlist

import (
	"bufio"
	"bytes"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Encoding is the form a list was read in: Native (UTF-8 with a BOM, the
// seed's) or one that a person's tool left (issue 15: a list re-saved by
// Excel or a text editor). The value is the Japanese name logged.
type Encoding string

const (
	Native     Encoding = "UTF-8（BOM 付き）"
	UTF8NoBOM  Encoding = "UTF-8（BOM なし）"
	ShiftJIS   Encoding = "Shift_JIS"
	UTF16LE    Encoding = "UTF-16 LE"
	UTF16BE    Encoding = "UTF-16 BE"
	sniffBytes          = 64 << 10
)

// decode returns the list's text as UTF-8 and the encoding it was in. The
// encoding is told by the first bytes: the UTF-8 BOM, a UTF-16 BOM (FF FE
// or FE FF, as Excel saves "Unicode text"), else UTF-8 if the first 64 KiB
// are valid UTF-8 (a cut last character allowed), else Shift_JIS (cp932,
// Excel's "Text (Tab delimited)" on a Japanese Windows). A list whose
// lines end in CR alone (Excel for Mac) reads with CR as the line end.
func decode(br *bufio.Reader) (*bufio.Reader, Encoding, error) {
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, "", err
	}
	var src io.Reader
	var enc Encoding
	switch {
	case bytes.HasPrefix(head, []byte(bom)), len(head) < len(bom) && len(head) > 0 && bytes.HasPrefix([]byte(bom), head):
		enc = Native // (or a BOM cut short: a list cut by a crash)
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		enc, src = UTF16LE, transform.NewReader(br, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder())
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		enc, src = UTF16BE, transform.NewReader(br, unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder())
	case validUTF8Prefix(head):
		enc = UTF8NoBOM
	default:
		enc, src = ShiftJIS, transform.NewReader(br, japanese.ShiftJIS.NewDecoder())
	}
	out := br
	if src != nil {
		out = bufio.NewReaderSize(src, sniffBytes)
		head, err = out.Peek(sniffBytes)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return nil, "", err
		}
	}
	if bytes.IndexByte(head, '\n') < 0 && bytes.IndexByte(head, '\r') >= 0 {
		out = bufio.NewReaderSize(crReader{out}, sniffBytes)
	}
	return out, enc, nil
}

// validUTF8Prefix reports whether b is valid UTF-8, allowing its last
// character to be cut (b is the first bytes of a longer input).
func validUTF8Prefix(b []byte) bool {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:])
		}
		i += size
	}
	return true
}

// crReader turns every CR into LF: the line ends of a list saved with CR
// alone.
type crReader struct{ r io.Reader }

func (c crReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}
