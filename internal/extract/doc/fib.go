package doc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/fumibako/fumibako/internal/extract"
)

// Word 97–2003 binary documents ([MS-DOC]): the File Information Block and
// the piece table.
//
// The WordDocument stream starts with the FIB (2.5.1), all little-endian:
//
//	off  size
//	  0     2  wIdent 0xA5EC
//	  2     2  nFib (Word 97 and later: ≥ 0x00C1; Word 6/95: 0x0065–0x0068)
//	 10     2  flags: 0x0004 fComplex, 0x0100 fEncrypted, 0x0200 fWhichTblStm
//	 32     2  csw, then csw 16-bit values (FibRgW97)
//	  …     2  cslw, then cslw 32-bit values (FibRgLw97): ccpText (index 3),
//	           ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx (10)
//	  …     2  cbRgFcLcb, then cbRgFcLcb (fc, lcb) pairs of 32-bit values
//	           (FibRgFcLcb97): offsets and sizes of structures in the table
//	           stream ("1Table" when fWhichTblStm is set, else "0Table")
//
// The text of all stories lies in one character-position (CP) space, in
// this order: main document (ccpText), footnotes, headers and footers,
// macros, comments (ccpAtn), endnotes, text boxes, header text boxes.
// CPs map to bytes of the WordDocument stream through the piece table,
// the Pcdt of the CLX (2.9.38): n+1 CPs then n 8-byte PCDs, whose 32-bit
// FcCompressed at offset 2 holds the piece's byte offset and, in bit 30,
// fCompressed: such a piece stores one Windows-1252 byte per character at
// offset fc/2, any other two UTF-16LE bytes per character at offset fc.

const (
	ident = 0xA5EC
	// minNFib is Word 97's nFib; earlier versions have another FIB.
	minNFib = 0x00C1
	// maxPieces bounds the piece table (each piece costs 12 bytes of
	// the table stream, so a real file is far below).
	maxPieces = 1 << 22
)

// FibRgFcLcb97 pair indexes used by the reader.
const (
	fcPlcffndRef    = 2
	fcPlcfandRef    = 4
	fcPlcfandTxt    = 5
	fcPlcfSed       = 6
	fcPlcfHdd       = 11
	fcPlcfBteChpx   = 12
	fcPlcfBtePapx   = 13
	fcClx           = 33
	fcPlcSpaMom     = 40
	fcPlcSpaHdr     = 41
	fcDggInfo       = 50
	fcPlcftxbxTxt   = 56
	fcPlcfHdrtxbxTx = 58
)

// Story indexes of the CP space, in order.
const (
	storyMain = iota
	storyFtn
	storyHdd
	storyMcr
	storyAtn
	storyEdn
	storyTxbx
	storyHdrTxbx
	stories
)

// fib is what the reader needs from the FIB.
type fib struct {
	nFib       uint16
	whichTable bool
	ccp        [stories]int64 // characters per story
	fcLcb      []uint32       // FibRgFcLcb pairs, flattened
	w6         *fib6          // Word 6/95 only (word6.go)
}

var errDocVersion = errors.New("extract: Word document older than Word 97")

func parseFib(b []byte) (*fib, error) {
	le := binary.LittleEndian
	if len(b) < 34 {
		return nil, fmt.Errorf("FIB: WordDocument stream has %d bytes", len(b))
	}
	f := &fib{nFib: le.Uint16(b[2:])}
	if id := le.Uint16(b); id != ident && !(f.nFib < minNFib && word6Ident(id)) {
		return nil, fmt.Errorf("FIB: wIdent %#04x", id)
	}
	flags := le.Uint16(b[10:])
	if flags&0x0100 != 0 {
		return nil, extract.Fail(extract.MsgPassword, errors.New("Word FIB fEncrypted"))
	}
	f.whichTable = flags&0x0200 != 0
	if f.nFib < minNFib {
		return parseFib6(b, f)
	}
	off := 32
	csw := int(le.Uint16(b[off:]))
	off += 2 + 2*csw
	if off+2 > len(b) {
		return nil, fmt.Errorf("FIB: csw %d beyond the stream", csw)
	}
	cslw := int(le.Uint16(b[off:]))
	off += 2
	if off+4*cslw+2 > len(b) || cslw < 11 {
		return nil, fmt.Errorf("FIB: cslw %d", cslw)
	}
	for i := 0; i < stories; i++ {
		v := int32(le.Uint32(b[off+4*(3+i):]))
		if v < 0 {
			return nil, fmt.Errorf("FIB: negative character count %d of story %d", v, i)
		}
		f.ccp[i] = int64(v)
	}
	off += 4 * cslw
	n := int(le.Uint16(b[off:]))
	off += 2
	if off+8*n > len(b) {
		n = (len(b) - off) / 8
	}
	f.fcLcb = make([]uint32, 2*n)
	for i := range f.fcLcb {
		f.fcLcb[i] = le.Uint32(b[off+4*i:])
	}
	return f, nil
}

// tableName is the table stream's name.
func (f *fib) tableName() string {
	if f.whichTable {
		return "1Table"
	}
	return "0Table"
}

// blob returns the bytes of FibRgFcLcb pair i in the table stream, or nil
// when the pair is absent, empty or out of range.
func (f *fib) blob(table []byte, i int) []byte {
	if 2*i+1 >= len(f.fcLcb) {
		return nil
	}
	fc, lcb := int64(f.fcLcb[2*i]), int64(f.fcLcb[2*i+1])
	if lcb == 0 || fc+lcb > int64(len(table)) {
		return nil
	}
	return table[fc : fc+lcb]
}

// storyStart returns the first CP of a story.
func (f *fib) storyStart(s int) int64 {
	var cp int64
	for i := 0; i < s; i++ {
		cp += f.ccp[i]
	}
	return cp
}

// piece is one piece of the piece table.
type piece struct {
	cp, end    int64 // [cp, end) in CP space
	fc         int64 // byte offset of the first character
	compressed bool
}

// docText is the decoded text of the CP space: one UTF-16 code unit per
// CP (compressed characters mapped from Windows-1252), and the pieces to
// map a CP back to its byte offset.
type docText struct {
	units  []uint16
	pieces []piece
	last   int // piece of the last fcOf, tried first
}

// readPieces parses the CLX at fcClx and decodes every piece from the
// WordDocument stream. Pieces beyond the stream end the text early, which
// the callers see as a shorter text.
func readPieces(fib *fib, table, word []byte) (*docText, error) {
	clx := fib.blob(table, fcClx)
	if clx == nil {
		return nil, errors.New("CLX missing")
	}
	t := &docText{}
	total := fib.storyStart(stories) + 1
	err := eachPiece(clx, total, t, func(k int, cp, end int64, raw uint32) error {
		p := piece{cp: cp, end: end, compressed: raw&0x40000000 != 0}
		fc := int64(raw & 0x3FFFFFFF)
		cnt := end - cp
		if p.compressed {
			p.fc = fc / 2
			if p.fc+cnt > int64(len(word)) {
				return fmt.Errorf("piece %d: bytes %d–%d beyond the WordDocument stream", k, p.fc, p.fc+cnt)
			}
			for _, c := range word[p.fc : p.fc+cnt] {
				t.units = append(t.units, cp1252Unit(c))
			}
		} else {
			p.fc = fc
			if p.fc+2*cnt > int64(len(word)) {
				return fmt.Errorf("piece %d: bytes %d–%d beyond the WordDocument stream", k, p.fc, p.fc+2*cnt)
			}
			for j := p.fc; j < p.fc+2*cnt; j += 2 {
				t.units = append(t.units, binary.LittleEndian.Uint16(word[j:]))
			}
		}
		t.pieces = append(t.pieces, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// eachPiece walks the piece table (PlcPcd) of a CLX, Word 97 and Word 6
// alike: the pieces that start before total, in order, each required to
// begin where the text decoded so far (t.units) ends, cut at total, empty
// ones skipped. fn gets the piece's CP range and its raw fc field, decodes
// the piece into t and may fail.
func eachPiece(clx []byte, total int64, t *docText, fn func(k int, cp, end int64, fc uint32) error) error {
	plc, err := clxPieceTable(clx)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	n := (len(plc) - 4) / 12
	if n > maxPieces {
		return fmt.Errorf("piece table: %d pieces", n)
	}
	t.pieces = slices.Grow(t.pieces, n)
	for k := 0; k < n; k++ {
		cp := int64(le.Uint32(plc[4*k:]))
		end := int64(le.Uint32(plc[4*k+4:]))
		if cp >= total {
			break
		}
		if end < cp || cp != int64(len(t.units)) {
			return fmt.Errorf("piece table: piece %d spans CPs %d–%d after CP %d", k, cp, end, len(t.units))
		}
		if end == cp {
			continue
		}
		if end > total {
			end = total
		}
		if err := fn(k, cp, end, le.Uint32(plc[4*(n+1)+8*k+2:])); err != nil {
			return err
		}
	}
	return nil
}

// clxPieceTable returns the PlcPcd of a CLX (2.9.38): Prc entries are
// skipped up to the Pcdt.
func clxPieceTable(clx []byte) ([]byte, error) {
	le := binary.LittleEndian
	var plc []byte
	for i := 0; i < len(clx); {
		switch clx[i] {
		case 0x01: // Prc: cbGrpprl then grpprl
			if i+3 > len(clx) {
				return nil, errors.New("CLX: truncated Prc")
			}
			cb := int(int16(le.Uint16(clx[i+1:])))
			if cb < 0 {
				return nil, fmt.Errorf("CLX: Prc of %d bytes", cb)
			}
			i += 3 + cb
		case 0x02: // Pcdt: lcb then PlcPcd
			if i+5 > len(clx) {
				return nil, errors.New("CLX: truncated Pcdt")
			}
			lcb := int64(le.Uint32(clx[i+1:]))
			if lcb > int64(len(clx)-i-5) {
				return nil, fmt.Errorf("CLX: Pcdt of %d bytes beyond the CLX", lcb)
			}
			plc = clx[i+5 : i+5+int(lcb)]
			i = len(clx)
		default:
			return nil, fmt.Errorf("CLX: unknown clxt %#02x at %d", clx[i], i)
		}
	}
	if len(plc) < 4 {
		return nil, errors.New("CLX: no piece table")
	}
	return plc, nil
}

// fcOf returns the byte offset of the character at cp, or -1.
func (t *docText) fcOf(cp int64) int64 {
	i := t.last
	if i >= len(t.pieces) || t.pieces[i].cp > cp || t.pieces[i].end <= cp {
		i = sort.Search(len(t.pieces), func(i int) bool { return t.pieces[i].end > cp })
		if i == len(t.pieces) || t.pieces[i].cp > cp {
			return -1
		}
		t.last = i
	}
	p := t.pieces[i]
	if p.compressed {
		return p.fc + (cp - p.cp)
	}
	return p.fc + 2*(cp-p.cp)
}

// slice returns the code units of [from, to), clipped to the text.
func (t *docText) slice(from, to int64) []uint16 {
	n := int64(len(t.units))
	if to > n {
		to = n
	}
	if from < 0 {
		from = 0
	}
	if from >= to {
		return nil
	}
	return t.units[from:to]
}

// cp1252High maps the bytes 0x80–0x9F of Windows-1252 to Unicode; the
// bytes without a character keep their value, as [MS-DOC] 2.4.1 says.
var cp1252High = [32]uint16{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

func cp1252Unit(c byte) uint16 {
	if c >= 0x80 && c < 0xA0 {
		return cp1252High[c-0x80]
	}
	return uint16(c)
}
