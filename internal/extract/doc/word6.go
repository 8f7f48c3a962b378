package doc

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Word 6.0 and Word 95 documents (nFib 101–105, wIdent 0xA5DC). Their FIB
// has fixed offsets instead of Word 97's counted arrays, all little-endian:
//
//	off  size
//	  0     2  wIdent (0xA5DC; 0xA5EC and the Far East 0xA697–0xA699 also
//	           occur)
//	  2     2  nFib
//	  6     2  lid: the language of the Word that saved the file
//	 10     2  flags as in Word 97 (0x0004 fComplex, 0x0100 fEncrypted)
//	 20     2  chse: the character set of the text (0 Windows, 256 Mac)
//	 24     4  fcMin: the first byte of the text
//	 28     4  fcMac: the byte after it
//	 52  8×4  ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx,
//	           ccpHdrTxbx (the stories of the CP space, as in Word 97)
//	 88  38×8  (fc, lcb) pairs fcStshfOrig … lcbSttbfAtnbkmk: Word 97's
//	           FibRgFcLcb97 pairs 0–37 (fcPlcfSed 6, fcPlcfHdd 11,
//	           fcPlcfBteChpx 12, fcPlcfBtePapx 13, fcDop 31, fcClx 33, …)
//	392     2  wSpare4Fib
//	394   4×2  pnChpFirst, pnPapFirst, cpnBteChp, cpnBtePap
//	402  35×8  (fc, lcb) pairs fcPlcdoaMom … lcbSttbFnm: Word 97's pairs
//	           38–72 (fcPlcftxbxTxt 56, fcPlcfHdrtxbxTxt 58)
//
// Every structure lies in the WordDocument stream itself (there is no
// table stream). Text is stored in the document's code page: in 8-bit
// bytes, one CP per byte, a double-byte character of Shift_JIS (code page
// 932) or another East Asian code page taking two CPs; or, when the FIB's
// fExtChar (0x1000) is set, in 16-bit units, one CP each, a unit from
// 0x3000 up holding a double-byte code (lead byte high) and any other the
// 8-bit code in its low byte. A file saved fully (fComplex clear) holds its
// text from fcMin on; a fast-saved one has a piece table in its CLX
// (fcClx, read only when fComplex is set, as LibreOffice does), whose
// pieces all have the file's unit size at their FC (Word 6 has no
// fCompressed bit). The code page follows the FIB
// as LibreOffice chooses it (WW8Fib::GetFIBCharset): chse 256 is Mac
// Roman, chse 0 takes the code page of the language lid, any other chse
// is a Windows character set. LibreOffice further switches the code page
// by each run's font character set; this reader keeps the document's.

const (
	minNFib6 = 101
	maxNFib6 = 105
	// fib6Size is the FIB's size up to lcbSttbFnm.
	fib6Size = 402 + 35*8
	fcDop    = 31
)

// word6Ident reports whether id is a wIdent of Word 6/95.
func word6Ident(id uint16) bool {
	return id == 0xA5DC || id == ident || id >= 0xA697 && id <= 0xA699
}

// fib6 is what the reader needs beyond Word 97's FIB fields.
type fib6 struct {
	fcMin, fcMac int64
	complex      bool
	extChar      bool // fExtChar: 16-bit units (below)
	cjkSprms     bool // wIdent 0xA697–0xA699: sprms 111–113 are 2 bytes
	cp           *codePage
	// The FKP pages of a file whose bin tables are incomplete.
	pnChpFirst, pnPapFirst, cpnBteChp, cpnBtePap int
}

// parseFib6 reads the FIB of a Word 6/95 file into f (nFib and flags read).
func parseFib6(b []byte, f *fib) (*fib, error) {
	if f.nFib < minNFib6 || f.nFib > maxNFib6 {
		return nil, fmt.Errorf("%w (nFib %#04x)", errDocVersion, f.nFib)
	}
	if len(b) < fib6Size {
		return nil, fmt.Errorf("Word 6 FIB: WordDocument stream has %d bytes", len(b))
	}
	le := binary.LittleEndian
	id := le.Uint16(b)
	w := &fib6{
		fcMin:      int64(le.Uint32(b[24:])),
		fcMac:      int64(le.Uint32(b[28:])),
		complex:    le.Uint16(b[10:])&0x0004 != 0,
		extChar:    le.Uint16(b[10:])&0x1000 != 0,
		cjkSprms:   id >= 0xA697 && id <= 0xA699,
		cp:         fibCodePage(le.Uint16(b[20:]), le.Uint16(b[6:])),
		pnChpFirst: int(le.Uint16(b[394:])),
		pnPapFirst: int(le.Uint16(b[396:])),
		cpnBteChp:  int(le.Uint16(b[398:])),
		cpnBtePap:  int(le.Uint16(b[400:])),
	}
	f.w6 = w
	for i := 0; i < stories; i++ {
		v := int32(le.Uint32(b[52+4*i:]))
		if v < 0 {
			return nil, fmt.Errorf("FIB: negative character count %d of story %d", v, i)
		}
		f.ccp[i] = int64(v)
	}
	f.fcLcb = make([]uint32, 0, 2*(38+35))
	for off := 88; off < 392; off += 4 {
		f.fcLcb = append(f.fcLcb, le.Uint32(b[off:]))
	}
	for off := 402; off < fib6Size; off += 4 {
		f.fcLcb = append(f.fcLcb, le.Uint32(b[off:]))
	}
	return f, nil
}

// readPieces6 decodes the CP space of a Word 6/95 document: through the
// piece table of the CLX when the FIB has one, else from fcMin on.
func readPieces6(fib *fib, word []byte) (*docText, error) {
	w := fib.w6
	total := fib.storyStart(stories) + 1
	t := &docText{}
	size := int64(1)
	if w.extChar {
		size = 2
	}
	add := func(cp, end, fc int64) error {
		if fc < 0 || fc+size*(end-cp) > int64(len(word)) {
			return fmt.Errorf("piece: bytes %d–%d beyond the WordDocument stream", fc, fc+size*(end-cp))
		}
		if w.extChar {
			t.units = w.cp.decode16(t.units, word[fc:fc+2*(end-cp)])
		} else {
			t.units = w.cp.decode(t.units, word[fc:fc+end-cp])
		}
		t.pieces = append(t.pieces, piece{cp: cp, end: end, fc: fc, compressed: !w.extChar})
		return nil
	}
	if clx := fib.blob(word, fcClx); clx != nil && w.complex {
		err := eachPiece(clx, total, t, func(_ int, cp, end int64, fc uint32) error {
			return add(cp, end, int64(fc))
		})
		if err != nil {
			return nil, err
		}
		return t, nil
	}
	if w.complex {
		return nil, errors.New("CLX missing")
	}
	end := w.fcMin + size*total
	if w.fcMac > w.fcMin && w.fcMac < end {
		end = w.fcMac
	}
	if end > int64(len(word)) {
		end = int64(len(word))
	}
	if n := (end - w.fcMin) / size; n > 0 {
		return t, add(0, n, w.fcMin)
	}
	return t, nil
}

// headerStories6 lists the header stories of a Word 6/95 document. Its
// PlcfHdd holds only the stories that exist: first the separators whose
// bits are set in the DOP's grpfIhdt (the high byte of its first word),
// then for each section those set in the section's grpfIhdt
// (sprmSGprfIhdt), in the order even header, odd header, even footer, odd
// footer, first-page header, first-page footer.
func headerStories6(fib *fib, word []byte) []hddStory {
	cps, _ := plc(fib.blob(word, fcPlcfHdd), 0)
	i := 0
	if dop := fib.blob(word, fcDop); len(dop) >= 2 {
		i = bitCount(dop[1] & 0x3F)
	}
	var out []hddStory
	for _, bits := range sectionHeaders6(fib, word) {
		for bit := 0; bit < 6; bit++ {
			if bits&(1<<bit) == 0 {
				continue
			}
			if i+1 < len(cps) {
				out = append(out, hddStory{from: cps[i], to: cps[i+1], header: bit == 0 || bit == 1 || bit == 4})
			}
			i++
		}
	}
	return out
}

func bitCount(b byte) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// sectionHeaders6 returns the grpfIhdt of each section (sprmSGprfIhdt of
// its SEPX; 0 without one).
func sectionHeaders6(fib *fib, word []byte) []byte {
	_, data := plc(fib.blob(word, fcPlcfSed), 12)
	out := make([]byte, len(data))
	le := binary.LittleEndian
	for i, d := range data {
		fc := int64(le.Uint32(d[2:]))
		if fc == 0xFFFFFFFF || fc+2 > int64(len(word)) {
			continue
		}
		cb := int64(le.Uint16(word[fc:]))
		if fc+2+cb > int64(len(word)) {
			continue
		}
		fib.walk(word[fc+2:fc+2+cb], func(op uint16, arg []byte) {
			if op == sprmSGprfIhdt {
				out[i] = arg[0]
			}
		})
	}
	return out
}
