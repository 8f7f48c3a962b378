package extract

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// BIFF records ([MS-XLS] 2.1.4): a 2-byte type, a 2-byte length and that
// many bytes of data, little-endian. Data longer than one record continues
// in CONTINUE records (0x003C) that follow it directly.

// Record types read by the .xls reader ([MS-XLS] 2.3).
const (
	xlsRFormula     = 0x0006
	xlsRFormula4    = 0x0406 // BIFF4 id, still written by some libraries (jxl)
	xlsREOF         = 0x000A
	xlsRHeader      = 0x0014
	xlsRFooter      = 0x0015
	xlsRNote        = 0x001C
	xlsRDateMode    = 0x0022
	xlsRFilePass    = 0x002F
	xlsRContinue    = 0x003C
	xlsRCodePage    = 0x0042
	xlsRObj         = 0x005D
	xlsRBoundSheet  = 0x0085
	xlsRMulRK       = 0x00BD
	xlsRRString     = 0x00D6
	xlsRXF          = 0x00E0
	xlsRMsoDrawing  = 0x00EC
	xlsRSST         = 0x00FC
	xlsRLabelSST    = 0x00FD
	xlsRTxO         = 0x01B6
	xlsRNumber      = 0x0203
	xlsRLabel       = 0x0204
	xlsRBoolErr     = 0x0205
	xlsRStr         = 0x0207
	xlsRRK          = 0x027E
	xlsRFormat      = 0x041E
	xlsRBOF         = 0x0809
	xlsRHeaderFtr   = 0x089C
	xlsRSupBook     = 0x01AE
	xlsRExternSheet = 0x0017
)

// BIFF versions (BOF.vers).
const (
	xlsBIFF5 = 0x0500
	xlsBIFF8 = 0x0600
)

// BOF.dt substream types.
const (
	xlsDtGlobals   = 0x0005
	xlsDtWorksheet = 0x0010
)

// errXlsTruncated reports a record shorter than its fixed fields.
var errXlsTruncated = errors.New("extract: xls record too short")

// xlsRecordReader reads the records of a workbook stream in order.
type xlsRecordReader struct {
	r   *bufio.Reader
	pos int64 // stream offset of the next record
	buf []byte
	dec *xlsDecrypter // set after a FILEPASS with the default password
}

func newXlsRecordReader(r io.Reader) *xlsRecordReader {
	return &xlsRecordReader{r: bufio.NewReaderSize(r, 64<<10), buf: make([]byte, 0xFFFF)}
}

// next returns the next record; data is valid until the following call.
// io.EOF means the stream ended on a record boundary.
func (rr *xlsRecordReader) next() (typ uint16, data []byte, off int64, err error) {
	var h [4]byte
	n, err := io.ReadFull(rr.r, h[:])
	if err != nil {
		if err == io.EOF || (err == io.ErrUnexpectedEOF && n < 4) {
			// A stream padded to its sector with a few bytes is common.
			return 0, nil, rr.pos, io.EOF
		}
		return 0, nil, rr.pos, err
	}
	off = rr.pos
	typ = binary.LittleEndian.Uint16(h[:])
	size := int(binary.LittleEndian.Uint16(h[2:]))
	data = rr.buf[:size]
	if _, err := io.ReadFull(rr.r, data); err != nil {
		// A record cut by the end of the stream: treat it as the end.
		return 0, nil, off, io.EOF
	}
	rr.pos += 4 + int64(size)
	if rr.dec != nil {
		rr.dec.record(typ, off+4, data)
	}
	return typ, data, off, nil
}

// peek returns the type of the next record without consuming it; ok is
// false at the end of the stream.
func (rr *xlsRecordReader) peek() (uint16, bool) {
	b, err := rr.r.Peek(2)
	if err != nil || len(b) < 2 {
		return 0, false
	}
	return binary.LittleEndian.Uint16(b), true
}

// withContinues returns first (copied; first itself is overwritten when
// a CONTINUE is read) followed by the data of every
// CONTINUE record after it, one segment per record. A string split over
// records starts each continued piece with a fresh flag byte, so the
// segment boundaries matter ([MS-XLS] 2.1.4).
func (rr *xlsRecordReader) withContinues(first []byte, b *xlsBudget) ([][]byte, error) {
	segs := [][]byte{append([]byte(nil), first...)}
	if err := b.add(len(first)); err != nil {
		return nil, err
	}
	for {
		t, ok := rr.peek()
		if !ok || t != xlsRContinue {
			return segs, nil
		}
		_, data, _, err := rr.next()
		if err != nil {
			if err == io.EOF {
				return segs, nil
			}
			return nil, err
		}
		if err := b.add(len(data)); err != nil {
			return nil, err
		}
		segs = append(segs, append([]byte(nil), data...))
	}
}

// skipContinues drops the CONTINUE records that follow the current one.
func (rr *xlsRecordReader) skipContinues() error {
	for {
		t, ok := rr.peek()
		if !ok || t != xlsRContinue {
			return nil
		}
		if _, _, _, err := rr.next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func le16(b []byte, i int) int { return int(binary.LittleEndian.Uint16(b[i:])) }

// biff5String decodes a BIFF5 string at off of a record: a count of
// countBytes bytes (1 or 2), then that many code-page bytes, cut at the
// record's end. The caller has checked that the count is there.
func (b *xlsBook) biff5String(data []byte, off, countBytes int) string {
	n := int(data[off])
	if countBytes == 2 {
		n = le16(data, off)
	}
	start := off + countBytes
	n = min(n, len(data)-start)
	return b.cp.decode(data[start : start+n])
}
func le32(b []byte, i int) uint32 {
	return binary.LittleEndian.Uint32(b[i:])
}

// xlsRK decodes an RkNumber ([MS-XLS] 2.5.217): bit 0 divides by 100,
// bit 1 marks a 30-bit signed integer, otherwise the upper 30 bits of an
// IEEE double.
func xlsRK(rk uint32) float64 {
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

// xlsErrorText is the display text of a BErr / error code ([MS-XLS]
// 2.5.10, [MS-XLSB] 2.5.97.2).
func xlsErrorText(code byte) string {
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

// xlsBool is the display text of a boolean cell.
func xlsBool(b bool) string {
	if b {
		return "TRUE"
	}
	return "FALSE"
}

// xlsRecordError names the record a parse error happened in.
func xlsRecordError(typ uint16, off int64, err error) error {
	return fmt.Errorf("xls record 0x%04X at offset %d: %w", typ, off, err)
}
