package biff12

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf16"
)

// BIFF12 records ([MS-XLSB] 2.1.4): the record type as 1 or 2 bytes and
// the data size as 1 to 4 bytes, each byte carrying 7 bits (low first)
// and a high bit that says another byte follows; then the data.

// Record types read by the .xlsb reader ([MS-XLSB] 2.3.2).
const (
	RowHdr           = 0
	CellBlank        = 1
	CellRk           = 2
	CellError        = 3
	CellBool         = 4
	CellReal         = 5
	CellSt           = 6
	CellIsst         = 7
	FmlaString       = 8
	FmlaNum          = 9
	FmlaBool         = 10
	FmlaError        = 11
	ShortBlank       = 12 // BrtShortBlank … BrtShortIsst: the cell records
	ShortRk          = 13 // without a column field; the column follows the
	ShortError       = 14 // previous cell record of the row
	ShortBool        = 15
	ShortReal        = 16
	ShortSt          = 17
	ShortIsst        = 18
	SSTItem          = 19
	Fmt              = 44
	XF               = 47
	CellRString      = 62
	WbProp           = 153
	BundleSh         = 156
	BeginHeaderFtr   = 479
	BeginCellXFs     = 617
	EndCellXFs       = 618
	BeginComment     = 635
	EndComment       = 636
	CommentText      = 637
	BeginCellStyleXF = 626
)

// recordMax is the largest record the reader loads; bigger records of
// the kinds it reads are skipped (no cell or string comes near it).
const recordMax = 16 << 20

var ErrShort = errors.New("extract: xlsb record too short")

// RecordReader reads the records of one binary part.
type RecordReader struct {
	r   *bufio.Reader
	buf []byte
}

func NewReader(r io.Reader) *RecordReader {
	return &RecordReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// varint reads a 7-bit-per-byte number of at most n bytes.
func (rr *RecordReader) varint(n int) (int, error) {
	v := 0
	for i := 0; i < n; i++ {
		c, err := rr.r.ReadByte()
		if err != nil {
			if i == 0 && err == io.EOF {
				return 0, io.EOF
			}
			return 0, io.ErrUnexpectedEOF
		}
		v |= int(c&0x7F) << (7 * i)
		if c&0x80 == 0 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("xlsb: record header varint longer than %d bytes", n)
}

// Next returns the next record whose type want accepts, with its data
// (valid until the following call); other records are skipped unread.
// io.EOF at the end of the part.
func (rr *RecordReader) Next(want func(int) bool) (int, []byte, error) {
	for {
		typ, err := rr.varint(2)
		if err != nil {
			return 0, nil, err
		}
		size, err := rr.varint(4)
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return 0, nil, err
		}
		if !want(typ) || size > recordMax {
			if _, err := rr.r.Discard(size); err != nil {
				return 0, nil, io.ErrUnexpectedEOF
			}
			continue
		}
		if cap(rr.buf) < size {
			rr.buf = make([]byte, size, max(size, 2*cap(rr.buf)))
		}
		data := rr.buf[:size]
		if _, err := io.ReadFull(rr.r, data); err != nil {
			return 0, nil, io.ErrUnexpectedEOF
		}
		return typ, data, nil
	}
}

// Wide reads an XLWideString (a 4-byte character count and UTF-16LE)
// at i; a NULL XLNullableWideString (count 0xFFFFFFFF) is "". It returns
// the string and the offset after it; ok is false when b is too short.
func Wide(b []byte, i int) (string, int, bool) {
	if i+4 > len(b) {
		return "", i, false
	}
	n := binary.LittleEndian.Uint32(b[i:])
	i += 4
	if n == 0xFFFFFFFF {
		return "", i, true
	}
	if int64(n)*2 > int64(len(b)-i) {
		return "", len(b), false
	}
	u := make([]uint16, n)
	for k := range u {
		u[k] = binary.LittleEndian.Uint16(b[i+2*k:])
	}
	return string(utf16.Decode(u)), i + 2*int(n), true
}

// RichStr reads the text of a RichStr ([MS-XLSB] 2.5.121): a flag
// byte, then the XLWideString; runs and phonetic data are not needed.
func RichStr(b []byte, i int) (string, bool) {
	if i >= len(b) {
		return "", false
	}
	s, _, ok := Wide(b, i+1)
	return s, ok
}

// Float reads an Xnum (IEEE double).
func Float(b []byte, i int) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(b[i:]))
}
