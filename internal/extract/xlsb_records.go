package extract

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
	xlsbRowHdr           = 0
	xlsbCellBlank        = 1
	xlsbCellRk           = 2
	xlsbCellError        = 3
	xlsbCellBool         = 4
	xlsbCellReal         = 5
	xlsbCellSt           = 6
	xlsbCellIsst         = 7
	xlsbFmlaString       = 8
	xlsbFmlaNum          = 9
	xlsbFmlaBool         = 10
	xlsbFmlaError        = 11
	xlsbSSTItem          = 19
	xlsbFmt              = 44
	xlsbXF               = 47
	xlsbCellRString      = 62
	xlsbWbProp           = 153
	xlsbBundleSh         = 156
	xlsbBeginHeaderFtr   = 479
	xlsbBeginCellXFs     = 617
	xlsbEndCellXFs       = 618
	xlsbBeginComment     = 635
	xlsbEndComment       = 636
	xlsbCommentText      = 637
	xlsbBeginCellStyleXF = 626
)

// xlsbRecordMax is the largest record the reader loads; bigger records of
// the kinds it reads are skipped (no cell or string comes near it).
const xlsbRecordMax = 16 << 20

var errXlsbShort = errors.New("extract: xlsb record too short")

// xlsbRecordReader reads the records of one binary part.
type xlsbRecordReader struct {
	r   *bufio.Reader
	buf []byte
}

func newXlsbRecordReader(r io.Reader) *xlsbRecordReader {
	return &xlsbRecordReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// varint reads a 7-bit-per-byte number of at most n bytes.
func (rr *xlsbRecordReader) varint(n int) (int, error) {
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

// next returns the next record whose type want accepts, with its data
// (valid until the following call); other records are skipped unread.
// io.EOF at the end of the part.
func (rr *xlsbRecordReader) next(want func(int) bool) (int, []byte, error) {
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
		if !want(typ) || size > xlsbRecordMax {
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

// xlsbWide reads an XLWideString (a 4-byte character count and UTF-16LE)
// at i; a NULL XLNullableWideString (count 0xFFFFFFFF) is "". It returns
// the string and the offset after it; ok is false when b is too short.
func xlsbWide(b []byte, i int) (string, int, bool) {
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

// xlsbRichStr reads the text of a RichStr ([MS-XLSB] 2.5.121): a flag
// byte, then the XLWideString; runs and phonetic data are not needed.
func xlsbRichStr(b []byte, i int) (string, bool) {
	if i >= len(b) {
		return "", false
	}
	s, _, ok := xlsbWide(b, i+1)
	return s, ok
}

// xlsbFloat reads an Xnum (IEEE double).
func xlsbFloat(b []byte, i int) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(b[i:]))
}
