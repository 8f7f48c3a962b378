package streams

import (
	"errors"
	"fmt"
	"io"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
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
// or breaks. The file is parsed by package officefile/cfb, the reader the
// native readers use; these rules are LibreOffice's reading of that parse.
//
// Tolerated, as LibreOffice tolerates them: a byte order mark other than
// FFFE, a mini sector shift other than 6, a directory chain that breaks
// after its first sector (the entries past the break are not read), links
// past the directory, garbage in entries the walk does not reach, a broken
// mini FAT, a stream whose FAT chain breaks or loops (LibreOffice reads the
// part that is there), a root entry of storage type, a start sector of -1
// … -4.

// Damage reports why LibreOffice cannot open the compound file r (size
// bytes, starting with the CFB signature) as a container, or "" when its
// container is sound as far as LibreOffice checks it. Read errors count
// as damage past the end of the file.
func Damage(r io.ReaderAt, size int64) string {
	h, err := cfb.ReadHeader(r, size)
	switch {
	case errors.Is(err, cfb.ErrFormat):
		return fmt.Sprintf("%d bytes, shorter than the compound file header", size)
	case err != nil:
		return "compound file header unreadable: " + errors.Unwrap(err).Error()
	}
	switch {
	case h.Major != 3 && h.Major != 4:
		return fmt.Sprintf("compound file major version %d", h.Major)
	case h.Shift != 9 && h.Shift != 12:
		return fmt.Sprintf("compound file sector shift %d", h.Shift)
	case h.Major == 4 && h.Shift != 12:
		return fmt.Sprintf("compound file version 4 with sector shift %d", h.Shift)
	}
	nfat := int32(h.NumFAT)
	if nfat <= 0 {
		return fmt.Sprintf("compound file with %d FAT sectors", nfat)
	}
	ss := int64(1) << h.Shift
	// LibreOffice maps sectors with the FAT sectors the header counts (and
	// the file cannot hold more FAT sectors than sectors).
	f := cfb.OpenHeader(r, size, h, min(int(nfat), int(size/ss)+1))
	if dir := h.DirStart; int32(dir) < 0 || (int64(dir)+1)*ss >= size {
		return fmt.Sprintf("first directory sector %#x is not in the file", dir)
	}
	if f.DirStop == cfb.StopFATPastEnd {
		return fmt.Sprintf("FAT sector %d, which maps directory sector %d, lies past the end of the file", f.StopFAT, f.StopSector)
	}
	return checkEntries(f.Entries)
}

// checkEntries walks the directory tree as LibreOffice does and checks
// each entry it reaches.
func checkEntries(entries []cfb.Entry) string {
	seen := make([]bool, len(entries))
	stack := []uint32{0}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if int64(id) >= int64(len(entries)) || seen[id] {
			continue
		}
		seen[id] = true
		e := &entries[id]
		if n := e.NameLen; n != 0 && n/2-1 > 31 {
			return fmt.Sprintf("directory entry %d: name length %d", id, n)
		}
		if e.Type != cfb.TypeStorage {
			if sz := int32(e.SizeLow); sz < 0 {
				return fmt.Sprintf("directory entry %d: size %d", id, sz)
			}
			if st := int32(e.Start); st < -4 {
				return fmt.Sprintf("directory entry %d: start sector %d", id, st)
			}
		}
		if e.Left == 0 || e.Right == 0 || e.Child == 0 {
			continue
		}
		for _, n := range []uint32{e.Left, e.Right} {
			if n != cfb.NoStream {
				stack = append(stack, n)
			}
		}
		if (id == 0 || e.Type == cfb.TypeStorage) && e.Child != cfb.NoStream {
			stack = append(stack, e.Child)
		}
	}
	return ""
}
