package summary

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/textfold"
	"github.com/fumibako/fumibako/internal/workspace"
)

// summaryBitsPerKey sizes the rows: with 3 hashes, 10 bits per key of the
// largest part let about 1.7% of the parts through for one absent key.
const summaryBitsPerKey = 10

// summaryShare bounds the rows to this fraction of the parts' bytes, so
// that one part with unusually many keys cannot blow the summary up (its
// false positives grow instead).
const summaryShare = 20

// racyWindow is how long after a folder's modification time its entry
// becomes trustworthy. File systems store coarse times (a kernel tick on
// Linux, ~16 ms on Windows): a change within the same tick as the time
// recorded would leave the time as it was. A change made once the window
// has passed always moves it, so the writer waits out the window for
// folders published moments ago and lists them again.
const racyWindow = 100 * time.Millisecond

// racyTime returns how long to wait before a folder modified at mtime
// (Unix ns) can be trusted, 0 when it can be now.
func racyTime(mtime int64) time.Duration {
	if mtime == 0 {
		return 0
	}
	age := time.Since(time.Unix(0, mtime))
	if age >= racyWindow {
		return 0
	}
	return min(racyWindow-age, racyWindow)
}

// racy returns the longest wait for the folders of dirs.
func racy(dirs []sumDir) time.Duration {
	var d time.Duration
	for _, x := range dirs {
		d = max(d, racyTime(x.mtime))
	}
	return d
}

// sumDir is a folder found by Write.
type sumDir struct {
	parent uint32
	name   string
	mtime  int64
	flags  uint32
	first  int
	parts  []format.PartRef
	files  []string // file names from the manifest
	gone   []bool   // parts[k] is not in the folder (nil: all are)
}

// Write writes the summary of the index folder contentRoot/index
// (temporary file, fsync, rename), unless the one on disk is still fresh.
// Only the coordinator calls it, after publishing. An index folder that
// does not exist gets its summary removed.
func Write(contentRoot, index string) error {
	// No publish of this process runs between the listing and the
	// removal of the changing mark (changing.go).
	changeMu.Lock()
	defer changeMu.Unlock()
	err := writeSummary(contentRoot, index)
	if err == nil {
		clearChanging(contentRoot, index)
	}
	return err
}

func writeSummary(contentRoot, index string) error {
	root := filepath.Join(contentRoot, index)
	// A temporary file a crash left behind goes, written now or not.
	workspace.Remove(Path(contentRoot, index) + format.TmpSuffix)
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return Remove(contentRoot, index)
	}
	if summaryFresh(contentRoot, index) {
		return nil
	}
	dirs := walkForSummary(root)
	for try := 0; try < 3 && racy(dirs) > 0; try++ {
		time.Sleep(racy(dirs))
		dirs = walkForSummary(root)
	}
	if racy(dirs) > 0 {
		for i := range dirs {
			if racyTime(dirs[i].mtime) > 0 {
				dirs[i].mtime = 0 // never fresh: searches list it themselves
			}
		}
	}
	parts := listSummaryParts(root, dirs)
	groups := groupParts(dirs)
	// The summary before, whose columns the groups it lists keep; closed
	// before the new one is renamed over it.
	old, _ := openSummary(contentRoot, index)
	m := &summaryMatrix{parts: parts.paths, groups: groups, old: old}
	defer m.dropOld()
	m.keepColumns(parts)
	var rec keyRecord
	if m.old != nil {
		rec = m.old.keys
	}
	keys := maxGroupKeys(parts, groups, m.from, rec, &m.counted)
	maxKeys := keys.max
	m.names = make([][]uint32, len(dirs))
	for i := range dirs {
		m.names[i] = pathKeys(dirs, i)
		maxKeys = max(maxKeys, len(m.names[i]))
	}
	m.row = (len(groups)+len(dirs)+7)/8 + summaryRowCRC
	m.nRows = summaryRowCount(maxKeys, m.row, parts.bytes)
	m.planReuse()
	head := encodeSummaryHead(dirs, parts.ids, groups, m.nRows, m.row, keys)
	return streamSummary(Path(contentRoot, index), head, m)
}

// summaryParts are the parts of an index, folder by folder in manifest
// order: the summary's columns.
type summaryParts struct {
	ids   [][format.IDSize]byte
	paths []string
	gone  []bool // the manifest lists it but its folder does not hold it
	bytes int64
}

func listSummaryParts(root string, dirs []sumDir) summaryParts {
	var p summaryParts
	for i := range dirs {
		d := &dirs[i]
		d.first = len(p.ids)
		for k, r := range d.parts {
			p.ids = append(p.ids, r.ID)
			p.paths = append(p.paths, filepath.Join(root, relOf(dirs, i), format.PartName(r.ID)))
			p.gone = append(p.gone, d.gone != nil && d.gone[k])
			p.bytes += r.Size
		}
	}
	return p
}

// summaryRowCount chooses the row count: 10 bits per key of the largest
// column, within the share of the parts' bytes.
func summaryRowCount(maxKeys, row int, partBytes int64) uint32 {
	nRows := uint32(1) << 10
	for int(nRows) < summaryBitsPerKey*maxKeys && nRows < 1<<26 {
		nRows <<= 1
	}
	for nRows > 1<<10 && int64(nRows)*int64(row) > max(partBytes/summaryShare, 1<<20) {
		nRows >>= 1
	}
	return nRows
}

// summaryFresh reports whether the summary on disk still describes every
// folder of the index.
func summaryFresh(contentRoot, index string) bool {
	s, err := openSummary(contentRoot, index)
	if err != nil || s == nil {
		return false
	}
	defer s.Close()
	for rel, d := range s.dirMap() {
		if d.Opaque || s.FreshDir(rel) == nil {
			return false
		}
	}
	return true
}

// walkForSummary lists the folders of the index depth first, parents
// before children, sub-folders by name. Each folder's time is taken
// before it is listed, so a change during the walk makes it stale.
func walkForSummary(root string) []sumDir {
	dirs := []sumDir{{parent: noParent}}
	for i := 0; i < len(dirs); i++ {
		path := filepath.Join(root, relOf(dirs, i))
		mtime, ok := dirMtime(path)
		if !ok {
			continue // mtime 0 never matches: searches list it themselves
		}
		dirs[i].mtime = mtime
		ents, err := os.ReadDir(path)
		if err != nil {
			dirs[i].mtime = 0
			continue
		}
		var subs []string
		for _, e := range ents {
			n := e.Name()
			if n == format.ManifestName {
				dirs[i].flags |= dirHasIndex
			}
			if e.IsDir() && !strings.HasPrefix(n, ".") {
				subs = append(subs, n)
			}
		}
		if dirs[i].flags&dirHasIndex != 0 {
			m, err := format.ReadManifest(path)
			if err != nil || m == nil {
				dirs[i].flags |= dirOpaque
			} else {
				dirs[i].parts = m.Parts
				dirs[i].gone = goneParts(ents, m.Parts)
				for _, f := range m.Files {
					dirs[i].files = append(dirs[i].files, f.Name)
				}
			}
		}
		slices.Sort(subs)
		for _, s := range subs {
			dirs = append(dirs, sumDir{parent: uint32(i), name: s})
		}
	}
	return dirs
}

// goneParts marks the parts that the folder's listing (sorted by name)
// lacks: such a part is read, not kept, by the next summary (reading it
// fails, and its column lets every search through to report it). nil
// when every part is there.
func goneParts(ents []os.DirEntry, parts []format.PartRef) []bool {
	var gone []bool
	for k, r := range parts {
		name := format.PartName(r.ID)
		if _, ok := slices.BinarySearchFunc(ents, name, func(e os.DirEntry, n string) int { return strings.Compare(e.Name(), n) }); ok {
			continue
		}
		if gone == nil {
			gone = make([]bool, len(parts))
		}
		gone[k] = true
	}
	return gone
}

// relOf returns the path of folder i relative to the index folder.
func relOf(dirs []sumDir, i int) string {
	var segs []string
	for ; i != 0; i = int(dirs[i].parent) {
		segs = append(segs, dirs[i].name)
	}
	slices.Reverse(segs)
	return filepath.Join(segs...)
}

// pathKeys returns the keys of the paths (under the index, `\`
// separated, folded) of the files of folder i, sorted and unique.
func pathKeys(dirs []sumDir, i int) []uint32 {
	if len(dirs[i].files) == 0 {
		return nil
	}
	rel := strings.ReplaceAll(relOf(dirs, i), string(filepath.Separator), `\`)
	seen := map[uint32]bool{}
	var keys []uint32
	for _, n := range dirs[i].files {
		p := n
		if rel != "" {
			p = rel + `\` + n
		}
		textfold.ForKeys(textfold.Append(nil, []byte(p)), func(k uint32) {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		})
	}
	slices.Sort(keys)
	return keys
}

// encodeSummaryHead encodes the header and the tables.
func encodeSummaryHead(dirs []sumDir, ids [][format.IDSize]byte, groups []summaryGroup, nRows uint32, row int, keys keyRecord) []byte {
	var names []byte
	le := binary.LittleEndian
	table := make([]byte, summaryDirSize*len(dirs))
	for i, d := range dirs {
		e := table[summaryDirSize*i:]
		le.PutUint32(e, d.parent)
		le.PutUint32(e[4:], uint32(len(names)))
		le.PutUint32(e[8:], uint32(len(d.name)))
		names = append(names, d.name...)
		le.PutUint32(e[12:], uint32(d.first))
		le.PutUint32(e[16:], uint32(len(d.parts)))
		le.PutUint32(e[20:], d.flags)
		le.PutUint64(e[24:], uint64(d.mtime))
	}
	h := make([]byte, summaryHeaderSize, summaryHeaderSize+len(table)+format.IDSize*len(ids)+4*len(groups)+len(names))
	copy(h, summaryMagic)
	le.PutUint32(h[8:], Version)
	le.PutUint32(h[12:], uint32(len(dirs)))
	le.PutUint32(h[16:], uint32(len(ids)))
	le.PutUint32(h[20:], nRows)
	le.PutUint32(h[24:], summaryHashes)
	le.PutUint32(h[28:], uint32(len(names)))
	le.PutUint32(h[32:], uint32(row))
	le.PutUint32(h[36:], uint32(len(groups)))
	le.PutUint32(h[40:], uint32(keys.max))
	copy(h[44:60], keys.id[:])
	out := append(h, table...)
	for _, id := range ids {
		out = append(out, id[:]...)
	}
	for _, g := range groups {
		out = le.AppendUint32(out, uint32(g.first))
	}
	out = append(out, names...)
	crc := crc32.Update(crc32.Checksum(out[:60], format.Castagnoli()), format.Castagnoli(), out[summaryHeaderSize:])
	le.PutUint32(out[60:], crc)
	return out
}
