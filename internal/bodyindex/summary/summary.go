package summary

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/content"
)

// Version is the version of the summary format (doc.go), apart from
// the body index format's (format.Version).
//
// History:
//
//	1  folders, parts and their Bloom columns.
//	2  one more column per folder, for the paths of its files.
//	3  the same layout, believed without folder times unless the index is
//	   marked changing: a summary of version 2 was written by a binary
//	   that does not mark, so it is rewritten rather than believed.
//	   Later writers of version 3 fill bytes 36..60 (0 before); a
//	   summary without them is read the same way.
//	4  one column per group of parts of a folder (about 4 MB) instead of
//	   one per part, so that parts can be small (issue 21); bytes 36..60
//	   hold the group count and the key record of the largest group; a
//	   key's rows lie in one block of rows chosen by its top bits.
//	5  the same layout; its keys, and its columns for file paths, are of
//	   the second folding (body index format 4, issue 34), so a summary of
//	   version 4 is rewritten rather than believed.
const Version = 5

const (
	summaryPrefix     = ".fumibako-summary."
	summaryMagic      = "FUMIBAKS"
	summaryHeaderSize = 64
	summaryDirSize    = 32
	summaryHashes     = 3
	summaryRowCRC     = 4
	// summaryBlock is how many rows hold the bits of one key (a power of
	// two at most the least row count, 1024).
	summaryBlock = 512
	noParent     = ^uint32(0)

	dirHasIndex = 1
	dirOpaque   = 2
)

// Path returns where the summary of index lives.
func Path(contentRoot, index string) string {
	return filepath.Join(contentRoot, summaryPrefix+index)
}

// Remove deletes the summary of index (a removed or renamed index).
// The summary is renamed to a "to delete" name first (format.RemoveOrDefer): a
// search may hold it open, and Windows keeps the name of an open file
// that is deleted until it is closed; the name is free at once this way,
// and the file goes now or at the next start.
func Remove(contentRoot, index string) error {
	path := Path(contentRoot, index)
	clearChanging(contentRoot, index) // no summary: nothing to distrust
	to, err := format.MoveAway(path, filepath.Join(contentRoot, content.DeferredPrefix+summaryPrefix+index))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return format.RemoveOrDefer(path)
	}
	format.RemoveFile(to)
	return nil
}

// Reader is an open summary. It holds the file open for Candidates; Close
// releases it.
type Reader struct {
	path  string
	root  string // the index folder
	stat  *dirStatter
	f     *os.File
	rows  int64 // offset of row 0
	nRows uint32
	hash  int
	row   int // R
	parts [][format.IDSize]byte
	// groups holds the first part of each group (column j < G).
	groups []int
	dirs   map[string]*Dir
	// entries is the folder table, parents before children.
	entries []Dir
	cols    int // G+D
	// trusted: the index was not marked changing when the summary was
	// opened, so its entries hold without checking folder times.
	trusted bool
	// keys is the header's record of the largest part (bytes 36..60).
	keys keyRecord
}

// keyRecord is the most keys a group of a summary has and the least id
// among the groups that have that many.
type keyRecord struct {
	max int
	id  [format.IDSize]byte
}

// Dir is what the summary says about one folder of the index.
type Dir struct {
	Mtime     int64    // modification time (Unix ns) the entry is valid for
	Subdirs   []string // sub-folders, by name as on disk
	Children  []int    // their folder numbers (Entry), in the order of Subdirs
	Number    int      // its own folder number (0: the index folder)
	HasIndex  bool     // the folder has a body index
	Opaque    bool     // its manifest could not be read when the summary was written
	FirstPart int      // its parts are FirstPart .. FirstPart+len(PartIDs)-1
	PartIDs   [][format.IDSize]byte
	// NameColumn is the Candidates bit of the paths of its files.
	NameColumn int
	parent     int    // the parent's number (folder 0: none)
	name       string // its name in the parent
}

// Open opens the summary of index. A missing summary gives nil,
// nil; a damaged one or one of another version gives an error (the caller
// searches without it).
func Open(contentRoot, index string) (*Reader, error) {
	// The mark is looked at first: a run that starts after this look is
	// concurrent with the search, which may then see the index as it was.
	trusted := !Changing(contentRoot, index)
	s, err := openSummary(contentRoot, index)
	if s != nil {
		s.trusted = trusted
	}
	return s, err
}

// openSummary opens the summary with every folder's time to be checked.
func openSummary(contentRoot, index string) (*Reader, error) {
	path := Path(contentRoot, index)
	f, err := format.OpenShared(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s, err := readSummary(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.root = filepath.Join(contentRoot, index)
	return s, nil
}

func readSummary(path string, f *os.File) (*Reader, error) {
	bad := func(what string) error { return &format.MalformedError{Path: path, What: what} }
	var h [summaryHeaderSize]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return nil, bad("header: " + err.Error())
	}
	le := binary.LittleEndian
	if string(h[:8]) != summaryMagic {
		return nil, bad("not a summary")
	}
	if v := le.Uint32(h[8:]); v != Version {
		return nil, bad(fmt.Sprintf("version %d", v))
	}
	nDirs, nParts, nRows := int64(le.Uint32(h[12:])), int64(le.Uint32(h[16:])), le.Uint32(h[20:])
	hashes, nNames, row := int(le.Uint32(h[24:])), int64(le.Uint32(h[28:])), int64(le.Uint32(h[32:]))
	nGroups := int64(le.Uint32(h[36:]))
	if nDirs == 0 || nDirs > 1<<24 || nParts > 1<<24 || nGroups > nParts || nParts > 0 && nGroups == 0 ||
		nRows == 0 || nRows&(nRows-1) != 0 ||
		hashes < 1 || hashes > 8 || row != (nGroups+nDirs+7)/8+summaryRowCRC {
		return nil, bad("header out of range")
	}
	metaSize := summaryDirSize*nDirs + format.IDSize*nParts + 4*nGroups + nNames
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	rows := int64(summaryHeaderSize) + metaSize
	if st.Size() != rows+int64(nRows)*row {
		return nil, bad(fmt.Sprintf("size %d does not fit the header", st.Size()))
	}
	meta := make([]byte, metaSize)
	if _, err := io.ReadFull(f, meta); err != nil {
		return nil, bad("tables: " + err.Error())
	}
	crc := crc32.Update(crc32.Checksum(h[:60], format.Castagnoli()), format.Castagnoli(), meta)
	if crc != le.Uint32(h[60:]) {
		return nil, bad("checksum mismatch")
	}
	s := &Reader{path: path, f: f, rows: rows, nRows: nRows, hash: hashes, row: int(row), cols: int(nGroups + nDirs)}
	s.keys = keyRecord{max: int(le.Uint32(h[40:]))}
	copy(s.keys.id[:], h[44:60])
	ids := meta[summaryDirSize*nDirs:]
	groups := ids[format.IDSize*nParts:]
	names := groups[4*nGroups:]
	s.parts = idsOf(ids[:format.IDSize*nParts])
	s.groups = make([]int, nGroups)
	for g := range s.groups {
		s.groups[g] = int(le.Uint32(groups[4*g:]))
		if g == 0 && s.groups[g] != 0 || g > 0 && (s.groups[g] <= s.groups[g-1] || int64(s.groups[g]) >= nParts) {
			return nil, bad(fmt.Sprintf("group %d out of range", g))
		}
	}
	if what := s.readFolders(meta[:summaryDirSize*nDirs], names); what != "" {
		return nil, bad(what)
	}
	return s, nil
}

// idsOf views the part table as ids, without a copy: it is most of the
// tables (46,000 parts, 740 KB at 10 GB), and a search reads only a few.
func idsOf(b []byte) [][format.IDSize]byte {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*[format.IDSize]byte)(unsafe.Pointer(&b[0])), len(b)/format.IDSize)
}

// Parts returns the number of parts (the length of a Candidates set).
func (s *Reader) Parts() int { return len(s.parts) }

// Candidates returns the parts (and folders' file paths, at NameColumn)
// that may hold every key, as a bit set (bit j%64 of word j/64 for column
// j): the parts of the groups whose columns pass, then a bit per folder.
// No keys means every column.
func (s *Reader) Candidates(keys []uint32) ([]uint64, error) {
	cols, err := s.columnsOf(keys)
	if err != nil {
		return nil, err
	}
	return s.expand(cols), nil
}

// columnsOf ANDs the rows of keys: the columns (groups, then folders)
// that may hold every key.
func (s *Reader) columnsOf(keys []uint32) ([]uint64, error) {
	set := make([]uint64, (s.cols+63)/64)
	for j := 0; j < s.cols; j++ {
		set[j/64] |= 1 << uint(j%64)
	}
	buf := make([]byte, s.row)
	le := binary.LittleEndian
	for _, k := range keys {
		for i := 0; i < s.hash; i++ {
			r := summaryRow(k, i, s.nRows)
			if _, err := s.f.ReadAt(buf, s.rows+int64(r)*int64(s.row)); err != nil {
				return nil, fmt.Errorf("bodyindex: read %s: %w", s.path, err)
			}
			bits := buf[:s.row-summaryRowCRC]
			if crc32.Checksum(bits, format.Castagnoli()) != le.Uint32(buf[s.row-summaryRowCRC:]) {
				return nil, &format.MalformedError{Path: s.path, What: fmt.Sprintf("row %d: checksum mismatch", r)}
			}
			any := false
			for w := range set {
				var x uint64
				for b := 0; b < 8 && 8*w+b < len(bits); b++ {
					x |= uint64(bits[8*w+b]) << (8 * b)
				}
				set[w] &= x
				any = any || set[w] != 0
			}
			if !any {
				return set, nil
			}
		}
	}
	return set, nil
}

// expand turns a set of columns into the set of parts and folders.
func (s *Reader) expand(cols []uint64) []uint64 {
	nParts := len(s.parts)
	out := make([]uint64, (nParts+s.cols-len(s.groups)+63)/64)
	set := func(j int) { out[j/64] |= 1 << uint(j%64) }
	has := func(c int) bool { return cols[c/64]&(1<<uint(c%64)) != 0 }
	for g := range s.groups {
		if has(g) {
			for j := s.groups[g]; j < s.groupEnd(g); j++ {
				set(j)
			}
		}
	}
	for i := 0; i < s.cols-len(s.groups); i++ {
		if has(len(s.groups) + i) {
			set(nParts + i)
		}
	}
	return out
}

// summaryRow returns row i of the rows a key sets.
func summaryRow(key uint32, i int, nRows uint32) uint32 {
	h := uint64(key) * 0x9E3779B97F4A7C15
	a, b := uint32(h>>32), uint32(h)|1
	return blockOf(key, nRows)*summaryBlock + (a+uint32(i)*b)&(summaryBlock-1)
}

// blockOf returns the block of rows of a key: its top bits.
func blockOf(key, nRows uint32) uint32 {
	blocks := uint64(nRows / summaryBlock)
	return uint32(uint64(key) * blocks >> 32)
}

// firstKeyOf returns the least key whose block is block (1<<32 past the
// last block).
func firstKeyOf(block, nRows uint32) uint64 {
	blocks := uint64(nRows / summaryBlock)
	return (uint64(block)<<32 + blocks - 1) / blocks
}

// Close releases the file.
func (s *Reader) Close() error {
	if s.stat != nil {
		s.stat.close()
	}
	return s.f.Close()
}
