// Package cfb is the one reader of MS-CFB compound files (the container of
// .doc, .xls, .ppt, of objects embedded in them and of encrypted OOXML).
// It serves the protection check of package officefile, the damage check
// made before LibreOffice is started, and the native readers' streams, all
// from one parse.
//
// It never trusts a count or a sector number from the file: every read is
// checked against the file, chains are walked lazily and cut by the file
// size, the directory read stops at a loop, and the directory tree is
// walked with a counter that no loop or shared subtree can outrun. A
// structure that cannot be read is not an error of Open: the parse keeps
// what it read (detection and the damage check work on damaged files) and
// Problem says what a strict reader refuses. The verdicts and the bytes a
// stream yields are those of github.com/richardlehane/mscfb, which the
// native readers used before, so that extraction stayed byte-identical
// (tools/extractdiff).
//
// Header (512 bytes, little-endian; [MS-CFB] 2.2):
//
//	off  size
//	  0     8  signature D0 CF 11 E0 A1 B1 1A E1
//	 26     2  major version (3: 512-byte sectors, 4: 4096-byte sectors)
//	 30     2  sector shift (9 or 12)
//	 40     4  number of directory sectors (version 4)
//	 44     4  number of FAT sectors
//	 48     4  first directory sector
//	 56     4  mini stream cutoff (4096)
//	 60     4  first mini FAT sector
//	 64     4  number of mini FAT sectors
//	 68     4  first DIFAT sector
//	 72     4  number of DIFAT sectors
//	 76   436  first 109 DIFAT entries (FAT sector numbers)
//
// Sector n starts at byte (n+1) × sector size. Directory entries are 128
// bytes: UTF-16LE name (64), name length in bytes with the NUL (2), object
// type (1: storage, 2: stream, 5: root), colour (1), left, right and child
// ids (4 each), CLSID (16), state (4), times (16), start sector (4), size (8;
// version 3 uses only the low 4 bytes).
package cfb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Sizes and special sector numbers of [MS-CFB].
const (
	HeaderSize = 512
	EntrySize  = 128
	miniSector = 64
	// MiniCutoff is the size below which a stream lives in the mini
	// stream; the header's field (56) is ignored, as the spec fixes it.
	MiniCutoff = 4096

	MaxRegSect = 0xFFFFFFFA // largest regular sector number
	EndOfChain = 0xFFFFFFFE
	NoStream   = 0xFFFFFFFF // no sibling or child

	TypeStorage = 1
	TypeStream  = 2
	TypeRoot    = 5

	// maxEntries bounds the directory read (8 MiB of directory sectors).
	maxEntries = 1 << 16
	// maxMiniFAT bounds the mini FAT sectors a header may declare.
	maxMiniFAT = 64000
)

// Signature starts every compound file.
var Signature = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// ErrFormat is in the chain of every error about the file's structure.
var ErrFormat = errors.New("cfb: malformed compound file")

// Header holds the fields of the 512-byte header.
type Header struct {
	Signature                [8]byte
	Major, Shift             uint16
	NumDir, NumFAT, DirStart uint32
	MiniFATStart, NumMiniFAT uint32
	DIFATStart, NumDIFAT     uint32
	DIFAT                    [109]uint32
}

// ReadHeader reads the header of a file of size bytes.
func ReadHeader(r io.ReaderAt, size int64) (Header, error) {
	var h Header
	if size < HeaderSize {
		return h, fmt.Errorf("%w: %d bytes, shorter than the header", ErrFormat, size)
	}
	b := make([]byte, HeaderSize)
	if _, err := r.ReadAt(b, 0); err != nil {
		return h, fmt.Errorf("cfb: read the header: %w", err)
	}
	le := binary.LittleEndian
	copy(h.Signature[:], b)
	h.Major, h.Shift = le.Uint16(b[26:]), le.Uint16(b[30:])
	h.NumDir, h.NumFAT, h.DirStart = le.Uint32(b[40:]), le.Uint32(b[44:]), le.Uint32(b[48:])
	h.MiniFATStart, h.NumMiniFAT = le.Uint32(b[60:]), le.Uint32(b[64:])
	h.DIFATStart, h.NumDIFAT = le.Uint32(b[68:]), le.Uint32(b[72:])
	for i := range h.DIFAT {
		h.DIFAT[i] = le.Uint32(b[76+4*i:])
	}
	return h, nil
}

// Stop says why the directory read ended.
type Stop int

// Stops.
const (
	StopEnd        Stop = iota // ENDOFCHAIN: the whole directory was read
	StopBreak                  // a sector or FAT entry that cannot be read
	StopLoop                   // the chain came back to a sector read before
	StopLimit                  // maxEntries read
	StopFATPastEnd             // the FAT sector mapping a directory sector lies past the end
)

// File is a parsed compound file.
type File struct {
	r     io.ReaderAt
	size  int64
	H     Header
	ss    int64    // sector size
	difat []uint32 // FAT sector numbers: the header's 109, then the DIFAT sectors'

	// Entries are the directory entries in id order, as far as the
	// directory could be read.
	Entries []Entry
	// DirStop says why the directory read ended; for StopFATPastEnd,
	// StopSector is the directory sector and StopFAT its FAT sector.
	DirStop             Stop
	StopSector, StopFAT uint32
	// Nodes are the entries the tree walk reaches, in its order.
	Nodes []Node

	miniFAT    []uint32 // sectors of the mini FAT
	miniStream []uint32 // sectors of the mini stream

	// Problem is the first fault a strict reader refuses the file for
	// (the verdict of mscfb.New); nil when the container is sound.
	Problem error
}

// Node is an entry reached by the tree walk.
type Node struct {
	ID     uint32
	Parent int      // id of the storage holding it; -1 for the root and its siblings
	Path   []string // names of the storages above it, the root's excluded
}

// Open parses the compound file r of size bytes. It fails only when the
// header cannot be read or is not a compound file's (signature, sector
// shift); everything after is read as far as it goes (File.Problem).
func Open(r io.ReaderAt, size int64) (*File, error) {
	h, err := ReadHeader(r, size)
	if err != nil {
		return nil, err
	}
	if string(h.Signature[:]) != string(Signature) {
		return nil, fmt.Errorf("%w: bad signature", ErrFormat)
	}
	if h.Shift != 9 && h.Shift != 12 {
		return nil, fmt.Errorf("%w: sector shift %d", ErrFormat, h.Shift)
	}
	return OpenHeader(r, size, h, -1), nil
}

// OpenHeader parses the file after its header h, whose sector shift must
// be 9 or 12. With fatSectors ≥ 0 the directory is read using only the
// first fatSectors FAT sectors, as LibreOffice reads it (Damage).
func OpenHeader(r io.ReaderAt, size int64, h Header, fatSectors int) *File {
	f := &File{r: r, size: size, H: h, ss: 1 << h.Shift}
	f.checkHeader()
	f.readDIFAT()
	limit := len(f.difat)
	if fatSectors >= 0 {
		limit = min(limit, fatSectors)
	}
	f.readDirectory(limit)
	if len(f.Entries) > 0 {
		f.readMiniStream()
		f.walk()
	}
	return f
}

func (f *File) fail(format string, a ...any) {
	if f.Problem == nil {
		f.Problem = fmt.Errorf("%w: "+format, append([]any{ErrFormat}, a...)...)
	}
}

// SectorSize returns 512 or 4096.
func (f *File) SectorSize() int64 { return f.ss }

// Size returns the size of the file.
func (f *File) Size() int64 { return f.size }

// offset returns where sector sec starts. The sum wraps in 32 bits as
// mscfb computes it (sector 0xFFFFFFFF starts at 0), so a damaged chain
// reads the same bytes it read there.
func (f *File) offset(sec uint32) int64 { return int64(sec+1) * f.ss }

// past reports whether sector sec starts at or past the end of the file.
func (f *File) past(sec uint32) bool { return (int64(sec)+1)*f.ss >= f.size }

func (f *File) readSector(sec uint32, buf []byte) error {
	if _, err := f.r.ReadAt(buf, f.offset(sec)); err != nil {
		return fmt.Errorf("cfb: read sector %d: %w", sec, err)
	}
	return nil
}

// checkHeader records the counts a strict reader refuses.
func (f *File) checkHeader() {
	h := f.H
	per := uint32(f.ss/4) - 1
	if h.NumDIFAT > 0 && h.NumDIFAT*per+109 > h.NumFAT+per {
		f.fail("%d DIFAT sectors for %d FAT sectors", h.NumDIFAT, h.NumFAT)
	}
	if h.NumMiniFAT > 0 && h.NumMiniFAT > h.NumFAT*uint32(f.ss/miniSector) {
		f.fail("%d mini FAT sectors for %d FAT sectors", h.NumMiniFAT, h.NumFAT)
	}
}

// readDIFAT reads the DIFAT sectors the header counts. Each holds ss/4-1
// FAT sector numbers and the next DIFAT sector. The walk stops at a sector
// that cannot be read or at a loop, so the file size bounds it. (Chains
// here and below stop at the first sector seen twice.)
func (f *File) readDIFAT() {
	f.difat = f.H.DIFAT[:]
	if f.H.NumDIFAT == 0 {
		return
	}
	f.difat = append([]uint32(nil), f.difat...)
	per := int(f.ss/4) - 1
	buf := make([]byte, f.ss)
	seen := map[uint32]bool{}
	sec := f.H.DIFATStart
	for i := uint32(0); i < f.H.NumDIFAT; i++ {
		if sec > MaxRegSect || f.past(sec) {
			f.fail("DIFAT sector %d is not in the file", sec)
			return
		}
		if err := f.readSector(sec, buf); err != nil {
			f.fail("DIFAT sector %d: %v", sec, err)
			return
		}
		for j := 0; j < per; j++ {
			f.difat = append(f.difat, binary.LittleEndian.Uint32(buf[4*j:]))
		}
		seen[sec] = true
		sec = binary.LittleEndian.Uint32(buf[4*per:])
		if seen[sec] && i+1 < f.H.NumDIFAT {
			f.fail("DIFAT chain loops at sector %d", sec)
			return
		}
	}
}

// next returns the FAT entry of sector sec (the next sector of its chain).
func (f *File) next(sec uint32) (uint32, error) {
	per := uint32(f.ss / 4)
	i := sec / per
	if int64(i) >= int64(len(f.difat)) {
		return 0, fmt.Errorf("%w: sector %d outside the FAT", ErrFormat, sec)
	}
	return f.entryAt(f.offset(f.difat[i])+int64(sec%per)*4, "FAT", sec)
}

// miniNext returns the mini FAT entry of mini sector sec.
func (f *File) miniNext(sec uint32) (uint32, error) {
	per := uint32(f.ss / 4)
	i := sec / per
	if int64(i) >= int64(len(f.miniFAT)) {
		return 0, fmt.Errorf("%w: mini sector %d outside the mini FAT", ErrFormat, sec)
	}
	return f.entryAt(f.offset(f.miniFAT[i])+int64(sec%per)*4, "mini FAT", sec)
}

func (f *File) entryAt(off int64, table string, sec uint32) (uint32, error) {
	var b [4]byte
	if _, err := f.r.ReadAt(b[:], off); err != nil {
		return 0, fmt.Errorf("cfb: read the %s entry of sector %d: %w", table, sec, err)
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// readDirectory reads the directory entries along the chain from the
// first directory sector until it ends, breaks, loops or reaches
// maxEntries; what was read before is kept. Sectors are mapped by the
// first fatLimit FAT sectors only.
func (f *File) readDirectory(fatLimit int) {
	buf := make([]byte, f.ss)
	per := uint32(f.ss / 4)
	seen := map[uint32]bool{}
	sec := f.H.DirStart
	why := ""
	f.DirStop = StopBreak
	for {
		if sec == EndOfChain {
			f.DirStop = StopEnd
			break
		}
		if seen[sec] {
			f.DirStop, why = StopLoop, fmt.Sprintf("the chain loops at sector %d", sec)
			break
		}
		seen[sec] = true
		if sec > MaxRegSect || f.past(sec) {
			why = fmt.Sprintf("sector %d is not in the file", sec)
			break
		}
		if err := f.readSector(sec, buf); err != nil {
			why = err.Error()
			break
		}
		if len(f.Entries) >= maxEntries {
			f.DirStop, why = StopLimit, fmt.Sprintf("over %d entries", maxEntries)
			break
		}
		for j := int64(0); j < f.ss; j += EntrySize {
			f.Entries = append(f.Entries, parseEntry(buf[j:j+EntrySize]))
		}
		i := sec / per
		if int64(i) >= int64(fatLimit) || f.difat[i] > MaxRegSect {
			why = fmt.Sprintf("sector %d is outside the FAT", sec)
			break
		}
		if f.past(f.difat[i]) {
			f.DirStop, f.StopSector, f.StopFAT = StopFATPastEnd, sec, f.difat[i]
			why = fmt.Sprintf("FAT sector %d of sector %d is not in the file", f.difat[i], sec)
			break
		}
		next, err := f.next(sec)
		if err != nil {
			why = err.Error()
			break
		}
		sec = next
	}
	switch {
	case len(f.Entries) == 0:
		f.fail("no directory entries: %s", why)
	case f.DirStop != StopEnd:
		f.fail("directory read stopped after %d entries: %s", len(f.Entries), why)
	}
}

// readMiniStream lists the sectors of the mini FAT (the header's count,
// along the FAT) and of the mini stream (the root entry's chain).
func (f *File) readMiniStream() {
	root := f.Entries[0]
	h := f.H
	if root.Start == EndOfChain || h.MiniFATStart == EndOfChain || h.NumMiniFAT == 0 {
		return
	}
	if h.NumMiniFAT > maxMiniFAT {
		f.fail("%d mini FAT sectors", h.NumMiniFAT)
		return
	}
	f.miniFAT = []uint32{h.MiniFATStart}
	for i := uint32(1); i < h.NumMiniFAT; i++ {
		sec, err := f.next(f.miniFAT[i-1])
		if err != nil {
			f.fail("mini FAT: %v", err)
			return
		}
		f.miniFAT = append(f.miniFAT, sec)
	}
	seen := map[uint32]bool{}
	for sec := root.Start; sec != EndOfChain; {
		if seen[sec] {
			f.fail("mini stream chain loops at sector %d", sec)
			return
		}
		seen[sec] = true
		f.miniStream = append(f.miniStream, sec)
		next, err := f.next(sec)
		if err != nil {
			f.fail("mini stream: %v", err)
			return
		}
		sec = next
	}
}
