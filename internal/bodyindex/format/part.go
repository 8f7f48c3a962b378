package format

import (
	"encoding/binary"
	"fmt"
	"sort"
	"sync"
	"unicode/utf8"
)

// Part is one opened part: the sections of its bytes, checked enough that
// every accessor stays in bounds.
type Part struct {
	path            string
	data            []byte
	strs            []byte
	fileSec, segSec []byte
	fileOff, segOff int // section offsets, for errors
	tables          sync.Once
	tablesErr       error
	filesOnce       sync.Once
	filesErr        error
	pool            string // strs as a string: names are substrings of it
	files           []string
	nSegs           int
	segs            []Segment
	lines           []byte // (nLines+1) × uint32
	nLines          int
	blocks          []blockRec
	fold            []byte
	foldOff         int // offset of the fold section in the file
	orig            []byte
	keys            []byte // nKeys × uint32
	masks           []byte // nKeys × maskW bytes
	maskW           int    // bytes per mask: maskWidth(blocks)
	gidx            []byte // every GramIndexStep-th key, or nil
	nKeys           int
}

// Segment is a run of lines of one place in a part.
type Segment struct {
	File      int    // index into Part.Files
	Place     string // place display name (extract.Place.Name)
	LineNo    int    // 1-based line number of the first line within its place
	FirstLine int    // index of the first line in the part
	Lines     int
}

// ParsePart checks and decodes the bytes of a part; path names it in
// errors. data must stay valid and unchanged while the Part is used.
func ParsePart(path string, data []byte) (*Part, error) {
	return parsePart(path, data, Version)
}

// parsePart parses a part of format version want: the current one, or an
// older one that Rebuild converts (legacyFolders).
func parsePart(path string, data []byte, want uint32) (*Part, error) {
	le := binary.LittleEndian
	bad := func(off int, format string, a ...any) error {
		return &MalformedError{Path: path, Offset: int64(off), What: fmt.Sprintf(format, a...)}
	}
	if len(data) < partHeaderSize {
		return nil, bad(0, "short header")
	}
	if string(data[:8]) != partMagic {
		return nil, bad(0, "not a fumibako body index part")
	}
	if v := le.Uint32(data[8:]); v != want {
		return nil, &RebuildError{Version: int(min(v, 1<<30)), Cause: bad(8, "part format version %d", v)}
	}
	nSec := int(le.Uint32(data[12:]))
	if nSec > maxSections || partHeaderSize+nSec*sectionEntrySize > len(data) {
		return nil, bad(12, "bad section count %d", nSec)
	}
	p := &Part{path: path, data: data}
	var sec [lastTag + 1][]byte // known sections; unknown tags are skipped
	var offs [lastTag + 1]int
	for i := 0; i < nSec; i++ {
		e := data[partHeaderSize+i*sectionEntrySize:]
		tag, off, n := le.Uint32(e), int64(le.Uint32(e[4:])), int64(le.Uint32(e[8:]))
		if off+n > int64(len(data)) {
			return nil, bad(partHeaderSize+i*sectionEntrySize, "section %d outside the file", tag)
		}
		if tag == 0 || tag > lastTag {
			continue
		}
		if sec[tag] != nil {
			return nil, bad(partHeaderSize+i*sectionEntrySize, "section %d twice", tag)
		}
		sec[tag] = data[off : off+n : off+n]
		offs[tag] = int(off)
	}
	for t := uint32(tagStrs); t <= tagGrams; t++ {
		if sec[t] == nil {
			return nil, bad(12, "section %d missing", t)
		}
	}
	secOff := func(t uint32) int { return offs[t] }
	p.strs, p.fold, p.orig = sec[tagStrs], sec[tagFold], sec[tagOrig]
	p.foldOff = secOff(tagFold)
	p.fileSec, p.fileOff = sec[tagFiles], secOff(tagFiles)
	p.segSec, p.segOff = sec[tagSegs], secOff(tagSegs)
	// lines
	ls := sec[tagLines]
	if len(ls) < 8 || len(ls)%4 != 0 {
		return nil, bad(secOff(tagLines), "bad line table")
	}
	p.lines, p.nLines = ls, len(ls)/4-1
	if le.Uint32(ls) != 0 || int64(le.Uint32(ls[len(ls)-4:])) != int64(len(p.fold)) {
		return nil, bad(secOff(tagLines), "line table does not span the folded text")
	}
	// blocks: consecutive line ranges from line 0
	bs := sec[tagBlock]
	if len(bs) < 4 || int64(len(bs)) != 4+blockSize*int64(le.Uint32(bs)) {
		return nil, bad(secOff(tagBlock), "bad block table")
	}
	nb := int(le.Uint32(bs))
	if nb == 0 || nb > 64 {
		return nil, bad(secOff(tagBlock), "block count %d", nb)
	}
	for i := 0; i < nb; i++ {
		r := bs[4+blockSize*i:]
		b := blockRec{firstLine: le.Uint32(r), patchOff: le.Uint32(r[4:]), patchLen: le.Uint32(r[8:]), rawLen: le.Uint32(r[12:]), flags: le.Uint32(r[16:])}
		at := secOff(tagBlock) + 4 + blockSize*i
		if (i == 0 && b.firstLine != 0) || (i > 0 && b.firstLine <= p.blocks[i-1].firstLine) || int64(b.firstLine) >= int64(p.nLines) {
			return nil, bad(at, "block lines out of order")
		}
		if int64(b.patchOff)+int64(b.patchLen) > int64(len(p.orig)) {
			return nil, bad(at, "block patches outside the orig section")
		}
		if int64(b.rawLen) > int64(len(p.fold))+int64(b.patchLen) {
			return nil, bad(at, "block size %d", b.rawLen)
		}
		p.blocks = append(p.blocks, b)
	}
	if err := p.parseGrams(sec[tagGrams], sec[tagGramIndex], offs[tagGrams], offs[tagGramIndex], want); err != nil {
		return nil, err
	}
	// The block table and the gram index are read by every search that
	// opens the part (the writer puts them first).
	willNeed(bs)
	willNeed(p.gidx)
	return p, nil
}

// parseGrams checks the gram section gs and the optional gram index gi
// (at file offsets gOff and iOff) of a part of version want whose blocks
// are parsed.
func (p *Part) parseGrams(gs, gi []byte, gOff, iOff int, want uint32) error {
	le := binary.LittleEndian
	p.maskW = maskWidth(len(p.blocks))
	if want == 2 {
		p.maskW = 8 // version 2 masks are always 8 bytes
	}
	if len(gs) < 4 || int64(len(gs)) != 4+int64(4+p.maskW)*int64(le.Uint32(gs)) {
		return &MalformedError{Path: p.path, Offset: int64(gOff), What: "bad gram table"}
	}
	p.nKeys = int(le.Uint32(gs))
	p.keys = gs[4 : 4+4*p.nKeys]
	p.masks = gs[4+4*p.nKeys:]
	if gi != nil {
		if len(gi) != 4*((p.nKeys+GramIndexStep-1)/GramIndexStep) {
			return &MalformedError{Path: p.path, Offset: int64(iOff), What: "bad gram index"}
		}
		p.gidx = gi
	}
	return nil
}

// parseTables decodes the file and segment tables on first use: a part
// that the n-gram filter skips never pays for them.
func (p *Part) parseTables() error {
	p.tables.Do(func() { p.tablesErr = p.decodeTables() })
	return p.tablesErr
}

// parseFiles decodes the file table and checks the size of the segment
// table; segments are decoded on demand (SegmentFor) or all at once
// (Segments).
func (p *Part) parseFiles() error {
	p.filesOnce.Do(func() { p.filesErr = p.decodeFiles() })
	return p.filesErr
}

func (p *Part) bad(off int, format string, a ...any) error {
	return &MalformedError{Path: p.path, Offset: int64(off), What: fmt.Sprintf(format, a...)}
}

// str returns a name of the string pool. Names are substrings of one copy
// of the pool (a part has hundreds of segments: one allocation each cost
// more than the scan).
func (p *Part) str(off, n uint32, at int) (string, error) {
	if int64(off)+int64(n) > int64(len(p.pool)) {
		return "", p.bad(at, "string outside the pool")
	}
	s := p.pool[off : off+n]
	if !utf8.ValidString(s) {
		return "", p.bad(at, "string not UTF-8")
	}
	return s, nil
}

func (p *Part) decodeFiles() error {
	le := binary.LittleEndian
	p.pool = string(p.strs)
	fs := p.fileSec
	if len(fs) < 4 || int64(len(fs)) != 4+8*int64(le.Uint32(fs)) {
		return p.bad(p.fileOff, "bad file table")
	}
	p.files = make([]string, 0, le.Uint32(fs))
	for i := 0; i < int(le.Uint32(fs)); i++ {
		name, err := p.str(le.Uint32(fs[4+8*i:]), le.Uint32(fs[8+8*i:]), p.fileOff+4+8*i)
		if err != nil {
			return err
		}
		if name == "" {
			return p.bad(p.fileOff+4+8*i, "empty file name")
		}
		p.files = append(p.files, name)
	}
	ss := p.segSec
	if len(ss) < 4 || int64(len(ss)) != 4+segSize*int64(le.Uint32(ss)) || le.Uint32(ss) == 0 {
		return p.bad(p.segOff, "bad segment table")
	}
	p.nSegs = int(le.Uint32(ss))
	return nil
}

// segment decodes segment i and checks it on its own: its file, its name,
// and its lines within the part.
func (p *Part) segment(i int) (Segment, error) {
	le := binary.LittleEndian
	at := p.segOff + 4 + segSize*i
	r := p.segSec[4+segSize*i:]
	file := le.Uint32(r)
	if int64(file) >= int64(len(p.files)) {
		return Segment{}, p.bad(at, "segment file %d out of range", file)
	}
	name, err := p.str(le.Uint32(r[4:]), le.Uint32(r[8:]), at)
	if err != nil {
		return Segment{}, err
	}
	s := Segment{File: int(file), Place: name, LineNo: int(le.Uint32(r[12:])), FirstLine: int(le.Uint32(r[16:])), Lines: int(le.Uint32(r[20:]))}
	if s.Lines <= 0 || s.FirstLine < 0 || s.FirstLine > p.nLines || s.Lines > p.nLines-s.FirstLine || s.LineNo <= 0 || s.LineNo > 1<<30 {
		return Segment{}, p.bad(at, "segment lines out of range")
	}
	return s, nil
}

// decodeTables decodes every segment and checks that they follow each
// other and cover every line.
func (p *Part) decodeTables() error {
	if err := p.parseFiles(); err != nil {
		return err
	}
	next := 0
	p.segs = make([]Segment, 0, p.nSegs)
	for i := 0; i < p.nSegs; i++ {
		s, err := p.segment(i)
		if err != nil {
			return err
		}
		if s.FirstLine != next {
			return p.bad(p.segOff+4+segSize*i, "segment lines out of order")
		}
		next += s.Lines
		p.segs = append(p.segs, s)
	}
	if next != p.nLines {
		return p.bad(p.segOff, "segments cover %d of %d lines", next, p.nLines)
	}
	return nil
}

// SegmentFor returns the segment holding line li (an index into the
// part's lines) and its index, decoding only that segment: a search that
// reads a few lines of a part needs a few of its hundreds of segments.
func (p *Part) SegmentFor(li int) (int, Segment, error) {
	if err := p.parseFiles(); err != nil {
		return 0, Segment{}, err
	}
	le := binary.LittleEndian
	firstLine := func(i int) int { return int(le.Uint32(p.segSec[4+segSize*i+16:])) }
	// The last segment starting at or before li.
	i := sort.Search(p.nSegs, func(i int) bool { return firstLine(i) > li }) - 1
	if i < 0 {
		return 0, Segment{}, p.bad(p.segOff, "no segment holds line %d", li)
	}
	s, err := p.segment(i)
	if err != nil {
		return 0, Segment{}, err
	}
	if li < s.FirstLine || li >= s.FirstLine+s.Lines {
		return 0, Segment{}, p.bad(p.segOff+4+segSize*i, "no segment holds line %d", li)
	}
	return i, s, nil
}

// Path is the part's file path.
func (p *Part) Path() string { return p.path }

// Files returns the names of the part's files in order.
func (p *Part) Files() ([]string, error) {
	if err := p.parseFiles(); err != nil {
		return nil, err
	}
	return p.files, nil
}

// Segments returns the part's runs of lines, in order.
func (p *Part) Segments() ([]Segment, error) {
	if err := p.parseTables(); err != nil {
		return nil, err
	}
	return p.segs, nil
}

// Lines returns the number of lines in the part.
func (p *Part) Lines() int { return p.nLines }

// Blocks returns the number of blocks.
func (p *Part) Blocks() int { return len(p.blocks) }

// BlockLines returns the line range [first, end) of block b.
func (p *Part) BlockLines(b int) (first, end int) {
	first = int(p.blocks[b].firstLine)
	end = p.nLines
	if b+1 < len(p.blocks) {
		end = int(p.blocks[b+1].firstLine)
	}
	return first, end
}

// AllBlocks is the mask with every block of the part set.
func (p *Part) AllBlocks() uint64 {
	if len(p.blocks) == 64 {
		return ^uint64(0)
	}
	return 1<<uint(len(p.blocks)) - 1
}

// Candidates returns the blocks that hold every key (sorted or not): the
// AND of their masks, 0 when a key is absent. No keys means every block.
func (p *Part) Candidates(keys []uint32) uint64 {
	mask := p.AllBlocks()
	le := binary.LittleEndian
	for _, k := range keys {
		lo, hi := 0, p.nKeys
		if p.gidx != nil {
			// The run of keys that can hold k, from the small index.
			n := len(p.gidx) / 4
			j := sort.Search(n, func(j int) bool { return le.Uint32(p.gidx[4*j:]) > k })
			if j == 0 {
				return 0
			}
			lo, hi = (j-1)*GramIndexStep, min(j*GramIndexStep, p.nKeys)
		}
		i := lo + sort.Search(hi-lo, func(i int) bool { return le.Uint32(p.keys[4*(lo+i):]) >= k })
		if i == hi || le.Uint32(p.keys[4*i:]) != k {
			return 0
		}
		mask &= getMask(p.masks[p.maskW*i:], p.maskW)
		if mask == 0 {
			return 0
		}
	}
	return mask
}

// GramBytes is the size of the part's gram section (for statistics).
func (p *Part) GramBytes() int { return len(p.keys) + len(p.masks) }
