package cfb

import (
	"encoding/binary"
	"fmt"
	"io"
)

// A compound file (MS-CFB) whose container LibreOffice cannot open is
// refused before LibreOffice is started (libreoffice/legacy.go, libreoffice.convertLegacy).
//
// LibreOffice opens compound files with its own storage code. When that
// refuses the container no binary filter matches, and Calc imports the
// bytes as CSV text instead: one sheet named after the file ("source")
// full of junk, which would be indexed. Writer and Impress write nothing
// for such a file. Excel, Word and PowerPoint do not open these files
// either, so they fail as damaged (MsgCorrupt).
//
// Damage makes only checks that LibreOffice's storage makes too, each
// confirmed with LibreOffice 7.4 on damaged copies of corpus .xls, .doc
// and .ppt files: with any one of these faults Calc imported the copy as
// text and Writer and Impress wrote nothing, while the faults listed as
// tolerated below converted as before. Offsets are of the 512-byte header
// and of the 128-byte directory entry; numbers are little-endian.
//
//	header     major version (26) other than 3 or 4, or 4 with a sector
//	           shift other than 12; sector shift (30) other than 9 or 12;
//	           FAT sector count (44) 0 or negative as int32; first
//	           directory sector (48) negative as int32 (ENDOFCHAIN: no
//	           directory) or at or past the end of the file
//	FAT        the FAT sector that maps a directory sector (its next
//	           sector or ENDOFCHAIN) starts at or past the end of the file
//	           (one that maps only other sectors may: LibreOffice reads
//	           it only when needed)
//	directory  an entry that LibreOffice's walk reaches (below) whose name
//	           length in bytes (64), n, gives n/2-1 > 31 in 16-bit
//	           arithmetic (n = 1 wraps and counts), or, unless it is a
//	           storage (type 1), whose size (120) is negative as int32 or
//	           whose start sector (116) is negative as int32 and none of
//	           FREESECT, ENDOFCHAIN, FATSECT, DIFSECT (-1 … -4)
//
// The walk: entry 0 (the root, whatever its type), then from each entry
// reached its left and right siblings (68, 72) and, for the root and for
// storages, its child (76); an id past the directory read so far is
// skipped, and an entry with a link to entry 0 is checked but not walked
// on from (LibreOffice does not walk on from it either). With no entry read
// at all (a first directory sector cut short) the verdict is left to
// LibreOffice. The directory is read along its FAT chain until the chain ends
// or breaks.
//
// Tolerated, as LibreOffice tolerates them: a byte order mark other than
// FFFE, a mini sector shift other than 6, a directory chain that breaks
// after its first sector (the entries past the break are not read), links
// past the directory, garbage in entries the walk does not reach, a broken
// mini FAT, a stream whose FAT chain breaks or loops (LibreOffice reads the
// part that is there), a root entry of storage type, a start sector of -1
// … -4.

const (
	checkHeader = 512
	checkEntry  = 128
	checkEOC    = 0xFFFFFFFE // ENDOFCHAIN
	checkMaxReg = 0xFFFFFFFA // MAXREGSECT
	checkNone   = 0xFFFFFFFF // NOSTREAM
	// checkMaxDir bounds the directory read (8 MiB of entries).
	checkMaxDir = 1 << 16
)

// Damage reports why LibreOffice cannot open the compound file r (size
// bytes, starting with the CFB signature) as a container, or "" when its
// container is sound as far as LibreOffice checks it. Read errors count
// as damage past the end of the file.
func Damage(r io.ReaderAt, size int64) string {
	if size < checkHeader {
		return fmt.Sprintf("%d bytes, shorter than the compound file header", size)
	}
	h := make([]byte, checkHeader)
	if _, err := r.ReadAt(h, 0); err != nil {
		return "compound file header unreadable: " + err.Error()
	}
	le := binary.LittleEndian
	major, shift := le.Uint16(h[26:]), le.Uint16(h[30:])
	switch {
	case major != 3 && major != 4:
		return fmt.Sprintf("compound file major version %d", major)
	case shift != 9 && shift != 12:
		return fmt.Sprintf("compound file sector shift %d", shift)
	case major == 4 && shift != 12:
		return fmt.Sprintf("compound file version 4 with sector shift %d", shift)
	}
	ss := int64(1) << shift
	// past reports whether sector sec starts at or past the end of the file.
	past := func(sec uint32) bool { return (int64(sec)+1)*ss >= size }
	nfat := int32(le.Uint32(h[44:]))
	if nfat <= 0 {
		return fmt.Sprintf("compound file with %d FAT sectors", nfat)
	}
	var fat []uint32 // FAT sector numbers
	for i := 0; i < int(min(nfat, 109)); i++ {
		fat = append(fat, le.Uint32(h[76+4*i:]))
	}
	fat = checkDIFAT(r, h, ss, size, fat, int(nfat))
	dir := le.Uint32(h[48:])
	if int32(dir) < 0 || past(dir) {
		return fmt.Sprintf("first directory sector %#x is not in the file", dir)
	}
	entries, why := checkDirectory(r, ss, size, fat, dir)
	if why != "" {
		return why
	}
	return checkEntries(entries)
}

// checkDIFAT appends the FAT sector numbers of the DIFAT sectors
// (header 68: first, 72: count) to fat, up to nfat in all; it stops at a
// DIFAT sector it cannot read (LibreOffice's verdict on those is not
// known, so they are not counted as damage).
func checkDIFAT(r io.ReaderAt, h []byte, ss, size int64, fat []uint32, nfat int) []uint32 {
	le := binary.LittleEndian
	next, count := le.Uint32(h[68:]), le.Uint32(h[72:])
	per := int(ss/4) - 1
	buf := make([]byte, ss)
	// The file cannot hold more FAT sectors than sectors.
	limit := min(nfat, int(size/ss)+1)
	for i := uint32(0); i < count && next <= checkMaxReg && len(fat) < limit; i++ {
		if (int64(next)+1)*ss+ss > size {
			break
		}
		if _, err := r.ReadAt(buf, (int64(next)+1)*ss); err != nil {
			break
		}
		for j := 0; j < per && len(fat) < limit; j++ {
			fat = append(fat, le.Uint32(buf[4*j:]))
		}
		next = le.Uint32(buf[4*per:])
	}
	return fat
}

// checkDirectory reads the directory entries along the chain from
// sector dir until the chain ends, breaks (a sector not wholly in the
// file, one outside the FAT, an unreadable FAT entry) or loops; the
// reason is set when the FAT sector that maps a directory sector lies
// past the end of the file.
func checkDirectory(r io.ReaderAt, ss, size int64, fat []uint32, dir uint32) (entries [][]byte, why string) {
	seen := map[uint32]bool{}
	per := uint32(ss / 4)
	for sec := dir; sec <= checkMaxReg && !seen[sec] && len(entries) < checkMaxDir; {
		seen[sec] = true
		off := (int64(sec) + 1) * ss
		if off+ss > size {
			break
		}
		buf := make([]byte, ss)
		if _, err := r.ReadAt(buf, off); err != nil {
			break
		}
		for i := int64(0); i < ss; i += checkEntry {
			entries = append(entries, buf[i:i+checkEntry])
		}
		i := int(sec / per)
		if i >= len(fat) || fat[i] > checkMaxReg {
			break
		}
		if (int64(fat[i])+1)*ss >= size {
			return entries, fmt.Sprintf("FAT sector %d, which maps directory sector %d, lies past the end of the file", fat[i], sec)
		}
		var b [4]byte
		if _, err := r.ReadAt(b[:], (int64(fat[i])+1)*ss+int64(sec%per)*4); err != nil {
			break
		}
		sec = binary.LittleEndian.Uint32(b[:])
	}
	return entries, ""
}

// checkEntries walks the directory tree as LibreOffice does and checks
// each entry it reaches.
func checkEntries(entries [][]byte) string {
	le := binary.LittleEndian
	seen := make([]bool, len(entries))
	stack := []uint32{0}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if int64(id) >= int64(len(entries)) || seen[id] {
			continue
		}
		seen[id] = true
		e := entries[id]
		typ := e[66]
		if n := le.Uint16(e[64:]); n != 0 && n/2-1 > 31 {
			return fmt.Sprintf("directory entry %d: name length %d", id, n)
		}
		if typ != 1 {
			if sz := int32(le.Uint32(e[120:])); sz < 0 {
				return fmt.Sprintf("directory entry %d: size %d", id, sz)
			}
			if st := int32(le.Uint32(e[116:])); st < -4 {
				return fmt.Sprintf("directory entry %d: start sector %d", id, st)
			}
		}
		left, right, child := le.Uint32(e[68:]), le.Uint32(e[72:]), le.Uint32(e[76:])
		if left == 0 || right == 0 || child == 0 {
			continue
		}
		for _, n := range []uint32{left, right} {
			if n != checkNone {
				stack = append(stack, n)
			}
		}
		if (id == 0 || typ == 1) && child != checkNone {
			stack = append(stack, child)
		}
	}
	return ""
}
