package image

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// TIFF pages (TIFF 6.0 §2, "Image File Directory"). A TIFF is an 8-byte
// header — byte order "II" (little-endian) or "MM" (big-endian), 42, the
// offset of the first IFD — and a chain of IFDs: a 2-byte entry count,
// 12-byte entries (tag, type, count, value or offset of the values), and
// the 4-byte offset of the next IFD, 0 after the last. x/image/tiff reads
// only the first IFD, so walkTIFF follows the chain and ifdReader shows
// the decoder the file with the header pointing at the page wanted.
//
// walkTIFF rejects, as a corrupt file: BigTIFF (43; not written by fax
// or scanner software), an IFD offset outside the file or before the
// header's end, a chain that comes back to an IFD already seen, more than
// MaxPages pages, and a strip or tile whose byte count or offset lies
// outside the file (the decoder allocates a strip's byte count before
// reading it).

// MaxPages bounds the pages of one TIFF.
const MaxPages = 2000

var errTIFF = errors.New("extract: malformed TIFF")

const (
	tagStripOffsets    = 273
	tagStripByteCounts = 279
	tagTileOffsets     = 324
	tagTileByteCounts  = 325
	tagXResolution     = 282
	tagYResolution     = 283
	tagResolutionUnit  = 296
	typeShort          = 3
	typeLong           = 4
	typeRational       = 5
)

// ifd is one page of a TIFF: where its IFD is and the resolution it
// states (0 when it states none).
type ifd struct {
	off        int64
	xdpi, ydpi float64
}

// walkTIFF returns the file's IFDs, in chain order.
func walkTIFF(r io.ReaderAt, size int64) ([]ifd, error) {
	var h [8]byte
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, fmt.Errorf("%w: header: %w", errTIFF, eof(err))
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if h[0] == 'M' {
		bo = binary.BigEndian
	}
	if v := bo.Uint16(h[2:]); v != 42 {
		return nil, fmt.Errorf("%w: version %d (BigTIFF is not read)", errTIFF, v)
	}
	var ifds []ifd
	seen := map[int64]bool{}
	for off := int64(bo.Uint32(h[4:])); off != 0; {
		switch {
		case off < 8 || off+2 > size:
			return nil, fmt.Errorf("%w: IFD %d at %d outside the file (%d bytes)", errTIFF, len(ifds)+1, off, size)
		case seen[off]:
			return nil, fmt.Errorf("%w: IFD chain loops back to %d", errTIFF, off)
		case len(ifds) == MaxPages:
			return nil, fmt.Errorf("%w: more than %d pages", errTIFF, MaxPages)
		}
		seen[off] = true
		var c [2]byte
		if _, err := r.ReadAt(c[:], off); err != nil {
			return nil, fmt.Errorf("%w: IFD at %d: %w", errTIFF, off, eof(err))
		}
		n := int64(bo.Uint16(c[:]))
		end := off + 2 + n*12
		if end+4 > size {
			return nil, fmt.Errorf("%w: IFD at %d with %d entries runs past the end", errTIFF, off, n)
		}
		entries := make([]byte, n*12+4)
		if _, err := r.ReadAt(entries, off+2); err != nil {
			return nil, fmt.Errorf("%w: IFD at %d: %w", errTIFF, off, eof(err))
		}
		if err := checkStrips(r, size, bo, entries[:n*12]); err != nil {
			return nil, fmt.Errorf("%w: page %d: %w", errTIFF, len(ifds)+1, err)
		}
		x, y := resolution(r, size, bo, entries[:n*12])
		ifds = append(ifds, ifd{off: off, xdpi: x, ydpi: y})
		off = int64(bo.Uint32(entries[n*12:]))
	}
	if len(ifds) == 0 {
		return nil, fmt.Errorf("%w: no IFD", errTIFF)
	}
	return ifds, nil
}

// checkStrips checks that every strip (or tile) offset and byte count of
// one IFD lies inside the file.
func checkStrips(r io.ReaderAt, size int64, bo binary.ByteOrder, entries []byte) error {
	for e := 0; e+12 <= len(entries); e += 12 {
		tag := bo.Uint16(entries[e:])
		switch tag {
		case tagStripOffsets, tagStripByteCounts, tagTileOffsets, tagTileByteCounts:
		default:
			continue
		}
		typ, count := bo.Uint16(entries[e+2:]), int64(bo.Uint32(entries[e+4:]))
		width := int64(4)
		switch typ {
		case typeShort:
			width = 2
		case typeLong:
		default:
			return fmt.Errorf("tag %d has type %d", tag, typ)
		}
		if count > size/width+1 {
			return fmt.Errorf("tag %d has %d values in a file of %d bytes", tag, count, size)
		}
		vals := entries[e+8 : e+12]
		if count*width > 4 {
			at := int64(bo.Uint32(entries[e+8:]))
			if at+count*width > size {
				return fmt.Errorf("tag %d values at %d outside the file", tag, at)
			}
			vals = make([]byte, count*width)
			if _, err := r.ReadAt(vals, at); err != nil {
				return fmt.Errorf("tag %d values: %w", tag, eof(err))
			}
		}
		for i := int64(0); i < count; i++ {
			var v int64
			if width == 2 {
				v = int64(bo.Uint16(vals[i*2:]))
			} else {
				v = int64(bo.Uint32(vals[i*4:]))
			}
			if v > size {
				return fmt.Errorf("tag %d value %d past the end of the file (%d bytes)", tag, v, size)
			}
		}
	}
	return nil
}

// resolution returns the dots per inch one IFD states (XResolution,
// YResolution, ResolutionUnit: 2 inch, the default, 3 centimetre), 0 when
// it states none or nonsense.
func resolution(r io.ReaderAt, size int64, bo binary.ByteOrder, entries []byte) (x, y float64) {
	perInch := 1.0
	for e := 0; e+12 <= len(entries); e += 12 {
		tag, typ := bo.Uint16(entries[e:]), bo.Uint16(entries[e+2:])
		switch {
		case tag == tagResolutionUnit && typ == typeShort:
			switch bo.Uint16(entries[e+8:]) {
			case 1:
				return 0, 0 // no absolute unit: an aspect ratio only
			case 3:
				perInch = 2.54
			}
		case (tag == tagXResolution || tag == tagYResolution) && typ == typeRational:
			at := int64(bo.Uint32(entries[e+8:]))
			var v [8]byte
			if at+8 > size {
				continue
			}
			if _, err := r.ReadAt(v[:], at); err != nil {
				continue
			}
			num, den := bo.Uint32(v[:]), bo.Uint32(v[4:])
			if den == 0 {
				continue
			}
			if tag == tagXResolution {
				x = float64(num) / float64(den)
			} else {
				y = float64(num) / float64(den)
			}
		}
	}
	return sane(x*perInch, y*perInch)
}

func eof(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// ifdReader is the file with the header's first-IFD offset replaced: an
// io.Reader and io.ReaderAt (x/image/tiff reads through ReadAt when it
// can, so no page is copied).
type ifdReader struct {
	r    io.ReaderAt
	size int64
	head [8]byte
	pos  int64
}

func newIFDReader(r io.ReaderAt, size int64, ifd int64) *ifdReader {
	x := &ifdReader{r: r, size: size}
	r.ReadAt(x.head[:], 0)
	bo := binary.ByteOrder(binary.LittleEndian)
	if x.head[0] == 'M' {
		bo = binary.BigEndian
	}
	bo.PutUint32(x.head[4:], uint32(ifd))
	return x
}

func (x *ifdReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: negative offset", errTIFF)
	}
	if off >= x.size {
		return 0, io.EOF
	}
	n, err := x.r.ReadAt(p, off)
	if off < 8 {
		copy(p[:n], x.head[off:])
	}
	return n, err
}

func (x *ifdReader) Read(p []byte) (int, error) {
	n, err := x.ReadAt(p, x.pos)
	x.pos += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}
