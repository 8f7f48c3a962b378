package biff

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// BIFF records ([MS-XLS] 2.1.4): a 2-byte type, a 2-byte length and that
// many bytes of data, little-endian. Data longer than one record continues
// in CONTINUE records (0x003C) that follow it directly.

// Record types read by the .xls reader ([MS-XLS] 2.3).
const (
	RFormula     = 0x0006
	RFormula4    = 0x0406 // BIFF4 id, still written by some libraries (jxl)
	REOF         = 0x000A
	RHeader      = 0x0014
	RFooter      = 0x0015
	RNote        = 0x001C
	RDateMode    = 0x0022
	RFilePass    = 0x002F
	RContinue    = 0x003C
	RCodePage    = 0x0042
	RObj         = 0x005D
	RBoundSheet  = 0x0085
	RMulRK       = 0x00BD
	RRString     = 0x00D6
	RXF          = 0x00E0
	RMsoDrawing  = 0x00EC
	RSST         = 0x00FC
	RLabelSST    = 0x00FD
	RTxO         = 0x01B6
	RNumber      = 0x0203
	RLabel       = 0x0204
	RBoolErr     = 0x0205
	RStr         = 0x0207
	RRK          = 0x027E
	RFormat      = 0x041E
	RBOF         = 0x0809
	RHeaderFtr   = 0x089C
	RSupBook     = 0x01AE
	RExternSheet = 0x0017
)

// BIFF versions (BOF.vers).
const (
	BIFF5 = 0x0500
	BIFF8 = 0x0600
)

// BOF.dt substream types.
const (
	DtGlobals   = 0x0005
	DtWorksheet = 0x0010
)

// ErrTruncated reports a record shorter than its fixed fields.
var ErrTruncated = errors.New("extract: xls record too short")

// RecordReader reads the records of a workbook stream in order.
type RecordReader struct {
	r   *bufio.Reader
	Pos int64 // stream offset of the next record
	buf []byte
	Dec *Decrypter // set after a FILEPASS with the default password
}

func NewRecordReader(r io.Reader) *RecordReader {
	return &RecordReader{r: bufio.NewReaderSize(r, 64<<10), buf: make([]byte, 0xFFFF)}
}

// Next returns the next record; data is valid until the following call.
// io.EOF means the stream ended on a record boundary.
func (rr *RecordReader) Next() (typ uint16, data []byte, off int64, err error) {
	var h [4]byte
	n, err := io.ReadFull(rr.r, h[:])
	if err != nil {
		if err == io.EOF || (err == io.ErrUnexpectedEOF && n < 4) {
			// A stream padded to its sector with a few bytes is common.
			return 0, nil, rr.Pos, io.EOF
		}
		return 0, nil, rr.Pos, err
	}
	off = rr.Pos
	typ = binary.LittleEndian.Uint16(h[:])
	size := int(binary.LittleEndian.Uint16(h[2:]))
	data = rr.buf[:size]
	if _, err := io.ReadFull(rr.r, data); err != nil {
		// A record cut by the end of the stream: treat it as the end.
		return 0, nil, off, io.EOF
	}
	rr.Pos += 4 + int64(size)
	if rr.Dec != nil {
		rr.Dec.Record(typ, off+4, data)
	}
	return typ, data, off, nil
}

// peek returns the type of the next record without consuming it; ok is
// false at the end of the stream.
func (rr *RecordReader) peek() (uint16, bool) {
	b, err := rr.r.Peek(2)
	if err != nil || len(b) < 2 {
		return 0, false
	}
	return binary.LittleEndian.Uint16(b), true
}

// WithContinues returns first (copied; first itself is overwritten when
// a CONTINUE is read) followed by the data of every
// CONTINUE record after it, one segment per record. A string split over
// records starts each continued piece with a fresh flag byte, so the
// segment boundaries matter ([MS-XLS] 2.1.4).
func (rr *RecordReader) WithContinues(first []byte, b *sheet.Budget) ([][]byte, error) {
	segs := [][]byte{append([]byte(nil), first...)}
	if err := b.Add(len(first)); err != nil {
		return nil, err
	}
	for {
		t, ok := rr.peek()
		if !ok || t != RContinue {
			return segs, nil
		}
		_, data, _, err := rr.Next()
		if err != nil {
			if err == io.EOF {
				return segs, nil
			}
			return nil, err
		}
		if err := b.Add(len(data)); err != nil {
			return nil, err
		}
		segs = append(segs, append([]byte(nil), data...))
	}
}

// skipContinues drops the CONTINUE records that follow the current one.
func (rr *RecordReader) skipContinues() error {
	for {
		t, ok := rr.peek()
		if !ok || t != RContinue {
			return nil
		}
		if _, _, _, err := rr.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func Le16(b []byte, i int) int { return int(binary.LittleEndian.Uint16(b[i:])) }
func Le32(b []byte, i int) uint32 {
	return binary.LittleEndian.Uint32(b[i:])
}

// RK decodes an RkNumber ([MS-XLS] 2.5.217): bit 0 divides by 100,
// bit 1 marks a 30-bit signed integer, otherwise the upper 30 bits of an
// IEEE double.
func RK(rk uint32) float64 {
	var v float64
	if rk&2 != 0 {
		v = float64(int32(rk) >> 2)
	} else {
		v = math.Float64frombits(uint64(rk&^3) << 32)
	}
	if rk&1 != 0 {
		v /= 100
	}
	return v
}

// ErrorText is the display text of a BErr / error code ([MS-XLS]
// 2.5.10, [MS-XLSB] 2.5.97.2).
func ErrorText(code byte) string {
	switch code {
	case 0x00:
		return "#NULL!"
	case 0x07:
		return "#DIV/0!"
	case 0x0F:
		return "#VALUE!"
	case 0x17:
		return "#REF!"
	case 0x1D:
		return "#NAME?"
	case 0x24:
		return "#NUM!"
	case 0x2A:
		return "#N/A"
	case 0x2B:
		return "#GETTING_DATA"
	}
	return "#N/A"
}

// Bool is the display text of a boolean cell.
func Bool(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

// RecordError names the record a parse error happened in.
func RecordError(typ uint16, off int64, err error) error {
	return fmt.Errorf("xls record 0x%04X at offset %d: %w", typ, off, err)
}

// ObjNote is the OBJ type (FtCmo.ot) of a cell note.
const ObjNote = 0x19
