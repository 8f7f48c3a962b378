package officefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
)

// A bounded reader of MS-CFB compound files: just enough to list directory
// names and read the first bytes of a stream. It never trusts a count or a
// sector number from the file: sectors are checked against the file size,
// chains are cut at the number of sectors the file can hold, and callers
// say how many bytes of a stream they want.
//
// Header (512 bytes, little-endian; [MS-CFB] 2.2):
//
//	off  size
//	  0     8  signature D0 CF 11 E0 A1 B1 1A E1
//	 26     2  major version (3: 512-byte sectors, 4: 4096-byte sectors)
//	 30     2  sector shift (9 or 12)
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

const (
	cfbHeaderSize   = 512
	cfbDirEntrySize = 128
	cfbMiniSector   = 64

	cfbEndOfChain = 0xFFFFFFFE
	cfbNoStream   = 0xFFFFFFFF
	cfbMaxRegSect = 0xFFFFFFFA

	cfbTypeStorage = 1
	cfbTypeStream  = 2
	cfbTypeRoot    = 5

	// cfbMaxEntries bounds the directory walk (8 MiB of directory sectors).
	cfbMaxEntries = 1 << 16
)

var errCFBFormat = errors.New("officefile: malformed compound file")

type cfbEntry struct {
	name               string // raw name, control prefix (\x06, \x09) included
	typ                byte
	left, right, child uint32
	start              uint32
	size               int64
}

type cfbFile struct {
	r          io.ReaderAt
	size       int64
	ss         int64  // sector size
	nsec       uint32 // sectors the file holds after the header
	difat      []uint32
	dirStart   uint32
	miniCutoff int64
	miniFAT    chain // chain of mini FAT sectors
	entries    []cfbEntry
	rootStream chain // the mini stream (root entry's chain)
}

// chain is a lazily walked FAT chain.
type chain struct {
	secs []uint32
	done bool // ENDOFCHAIN reached
}

// openCFB parses the header and DIFAT of a compound file. The directory is
// read by readDir.
func openCFB(r io.ReaderAt, size int64) (*cfbFile, error) {
	if size < cfbHeaderSize {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the header", errCFBFormat, size)
	}
	h := make([]byte, cfbHeaderSize)
	if _, err := r.ReadAt(h, 0); err != nil {
		return nil, fmt.Errorf("officefile: read compound file header: %w", err)
	}
	if string(h[:8]) != string(cfbSignature) {
		return nil, fmt.Errorf("%w: bad signature", errCFBFormat)
	}
	le := binary.LittleEndian
	shift := le.Uint16(h[30:])
	if shift != 9 && shift != 12 {
		return nil, fmt.Errorf("%w: sector shift %d", errCFBFormat, shift)
	}
	c := &cfbFile{r: r, size: size, ss: 1 << shift}
	n := (size - c.ss) / c.ss // whole sectors after the header sector
	if size%c.ss != 0 {
		n++ // a truncated last sector still counts; its read fails later
	}
	if n < 0 {
		n = 0
	}
	if n > cfbMaxRegSect {
		n = cfbMaxRegSect
	}
	c.nsec = uint32(n)
	c.dirStart = le.Uint32(h[48:])
	c.miniCutoff = int64(le.Uint32(h[56:]))
	if s := le.Uint32(h[60:]); s < c.nsec && le.Uint32(h[64:]) > 0 {
		c.miniFAT.secs = []uint32{s}
	} else {
		c.miniFAT.done = true
	}
	for i := 0; i < 109; i++ {
		c.difat = append(c.difat, le.Uint32(h[76+4*i:]))
	}
	// Further DIFAT sectors: each holds ss/4-1 FAT sector numbers and the
	// next DIFAT sector. The walk is cut at the number of sectors in the
	// file, which also ends loops.
	// No more FAT sectors are useful than it takes to map every sector of
	// the file, which bounds the DIFAT by the file size over 128 (or 1,024).
	next, count := le.Uint32(h[68:]), le.Uint32(h[72:])
	per := int(c.ss/4) - 1
	useful := int(c.nsec)/int(c.ss/4) + 1
	buf := make([]byte, c.ss)
	for i := uint32(0); i < count && next < c.nsec && len(c.difat) < useful; i++ {
		if err := c.readSector(next, buf); err != nil {
			break
		}
		for j := 0; j < per; j++ {
			c.difat = append(c.difat, le.Uint32(buf[4*j:]))
		}
		next = le.Uint32(buf[4*per:])
	}
	return c, nil
}

func (c *cfbFile) readSector(sec uint32, buf []byte) error {
	if sec >= c.nsec {
		return fmt.Errorf("%w: sector %d beyond the %d in the file", errCFBFormat, sec, c.nsec)
	}
	if _, err := c.r.ReadAt(buf, (int64(sec)+1)*c.ss); err != nil {
		return fmt.Errorf("officefile: read sector %d: %w", sec, err)
	}
	return nil
}

// next returns the FAT entry of sector sec.
func (c *cfbFile) next(sec uint32) (uint32, error) {
	per := uint32(c.ss / 4)
	i := sec / per
	if int(i) >= len(c.difat) {
		return 0, fmt.Errorf("%w: sector %d outside the FAT", errCFBFormat, sec)
	}
	fs := c.difat[i]
	if fs >= c.nsec {
		return 0, fmt.Errorf("%w: FAT sector %d beyond the file", errCFBFormat, fs)
	}
	var b [4]byte
	if _, err := c.r.ReadAt(b[:], (int64(fs)+1)*c.ss+int64(sec%per)*4); err != nil {
		return 0, fmt.Errorf("officefile: read FAT entry of sector %d: %w", sec, err)
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// at returns the i-th sector of the chain, walking the FAT as far as needed.
// A chain longer than the file's sector count is a loop.
func (c *cfbFile) at(ch *chain, i int) (uint32, error) {
	for len(ch.secs) <= i {
		if ch.done || len(ch.secs) == 0 {
			return 0, fmt.Errorf("%w: chain ends after %d sectors", errCFBFormat, len(ch.secs))
		}
		if uint32(len(ch.secs)) >= c.nsec {
			return 0, fmt.Errorf("%w: sector chain loops", errCFBFormat)
		}
		n, err := c.next(ch.secs[len(ch.secs)-1])
		if err != nil {
			return 0, err
		}
		if n == cfbEndOfChain {
			ch.done = true
			continue
		}
		if n >= c.nsec {
			return 0, fmt.Errorf("%w: sector %d beyond the file", errCFBFormat, n)
		}
		ch.secs = append(ch.secs, n)
	}
	return ch.secs[i], nil
}

func newChain(start, nsec uint32) chain {
	if start >= nsec {
		return chain{done: true}
	}
	return chain{secs: []uint32{start}}
}

// readDir reads directory entries until the chain ends, breaks or reaches
// cfbMaxEntries; what was read before a break is kept (the reference's
// defensive walk). It fails only when not even one sector could be read.
func (c *cfbFile) readDir() error {
	ch := newChain(c.dirStart, c.nsec)
	buf := make([]byte, c.ss)
	per := int(c.ss / cfbDirEntrySize)
	var firstErr error
	for i := 0; len(c.entries) < cfbMaxEntries; i++ {
		sec, err := c.at(&ch, i)
		if err != nil {
			firstErr = err
			break
		}
		if err := c.readSector(sec, buf); err != nil {
			firstErr = err
			break
		}
		for j := 0; j < per; j++ {
			c.entries = append(c.entries, parseDirEntry(buf[j*cfbDirEntrySize:(j+1)*cfbDirEntrySize]))
		}
	}
	if len(c.entries) == 0 {
		if firstErr == nil {
			firstErr = fmt.Errorf("%w: empty directory", errCFBFormat)
		}
		return firstErr
	}
	if root := c.entries[0]; root.typ == cfbTypeRoot {
		c.rootStream = newChain(root.start, c.nsec)
	} else {
		c.rootStream = chain{done: true}
	}
	return nil
}

func parseDirEntry(b []byte) cfbEntry {
	le := binary.LittleEndian
	e := cfbEntry{
		typ:   b[66],
		left:  le.Uint32(b[68:]),
		right: le.Uint32(b[72:]),
		child: le.Uint32(b[76:]),
		start: le.Uint32(b[116:]),
		size:  int64(le.Uint32(b[120:])), // version 4's high half is ignored: we read a few KB at most
	}
	n := int(le.Uint16(b[64:]))
	if n >= 2 && n <= 64 && n%2 == 0 {
		u := make([]uint16, 0, n/2-1)
		for k := 0; k < n-2; k += 2 {
			u = append(u, le.Uint16(b[k:]))
		}
		e.name = string(utf16.Decode(u))
	}
	return e
}

// hasName reports whether any directory entry is called name (ignoring case,
// as MS-CFB compares names).
func (c *cfbFile) hasName(name string) bool {
	for _, e := range c.entries {
		if (e.typ == cfbTypeStream || e.typ == cfbTypeStorage) && strings.EqualFold(e.name, name) {
			return true
		}
	}
	return false
}

// rootStreamNamed finds a stream that is a direct child of the root storage.
func (c *cfbFile) rootStreamNamed(name string) (cfbEntry, bool) {
	if len(c.entries) == 0 || c.entries[0].typ != cfbTypeRoot {
		return cfbEntry{}, false
	}
	// The children of a storage form a red-black tree over left/right
	// siblings; walk it with an explicit stack and a visited set, so a
	// looping or deep tree costs at most one step per entry.
	seen := make(map[uint32]bool)
	stack := []uint32{c.entries[0].child}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id == cfbNoStream || int64(id) >= int64(len(c.entries)) || seen[id] {
			continue
		}
		seen[id] = true
		e := c.entries[id]
		if e.typ == cfbTypeStream && strings.EqualFold(e.name, name) {
			return e, true
		}
		stack = append(stack, e.left, e.right)
	}
	return cfbEntry{}, false
}

// readStream returns the first min(n, size) bytes of a stream, from the mini
// stream when the stream is smaller than the cutoff.
func (c *cfbFile) readStream(e cfbEntry, n int) ([]byte, error) {
	if int64(n) > e.size {
		n = int(e.size)
	}
	out := make([]byte, 0, n)
	if e.size < c.miniCutoff {
		ch := chain{}
		if e.start <= cfbMaxRegSect {
			ch.secs = []uint32{e.start}
		} else {
			ch.done = true
		}
		for i := 0; len(out) < n; i++ {
			ms, err := c.atMini(&ch, i)
			if err != nil {
				return nil, err
			}
			b, err := c.readMini(ms)
			if err != nil {
				return nil, err
			}
			out = append(out, b[:min(len(b), n-len(out))]...)
		}
		return out, nil
	}
	ch := newChain(e.start, c.nsec)
	buf := make([]byte, c.ss)
	for i := 0; len(out) < n; i++ {
		sec, err := c.at(&ch, i)
		if err != nil {
			return nil, err
		}
		if err := c.readSector(sec, buf); err != nil {
			return nil, err
		}
		out = append(out, buf[:min(len(buf), n-len(out))]...)
	}
	return out, nil
}

// atMini returns the i-th mini sector of a mini-FAT chain.
func (c *cfbFile) atMini(ch *chain, i int) (uint32, error) {
	for len(ch.secs) <= i {
		if ch.done || len(ch.secs) == 0 {
			return 0, fmt.Errorf("%w: mini chain ends after %d sectors", errCFBFormat, len(ch.secs))
		}
		if int64(len(ch.secs))*cfbMiniSector >= c.size {
			return 0, fmt.Errorf("%w: mini sector chain loops", errCFBFormat)
		}
		m := ch.secs[len(ch.secs)-1]
		per := uint32(c.ss / 4)
		fs, err := c.at(&c.miniFAT, int(m/per))
		if err != nil {
			return 0, err
		}
		var b [4]byte
		if _, err := c.r.ReadAt(b[:], (int64(fs)+1)*c.ss+int64(m%per)*4); err != nil {
			return 0, fmt.Errorf("officefile: read mini FAT entry %d: %w", m, err)
		}
		n := binary.LittleEndian.Uint32(b[:])
		if n == cfbEndOfChain {
			ch.done = true
			continue
		}
		if n > cfbMaxRegSect {
			return 0, fmt.Errorf("%w: mini sector %d", errCFBFormat, n)
		}
		ch.secs = append(ch.secs, n)
	}
	return ch.secs[i], nil
}

// readMini reads one 64-byte mini sector from the mini stream.
func (c *cfbFile) readMini(ms uint32) ([]byte, error) {
	off := int64(ms) * cfbMiniSector
	if off >= c.entries[0].size {
		return nil, fmt.Errorf("%w: mini sector %d beyond the mini stream", errCFBFormat, ms)
	}
	sec, err := c.at(&c.rootStream, int(off/c.ss))
	if err != nil {
		return nil, err
	}
	b := make([]byte, cfbMiniSector)
	if _, err := c.r.ReadAt(b, (int64(sec)+1)*c.ss+off%c.ss); err != nil {
		return nil, fmt.Errorf("officefile: read mini sector %d: %w", ms, err)
	}
	return b, nil
}
