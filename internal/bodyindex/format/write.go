package format

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/fumibako/fumibako/internal/bodyindex/format/gramset"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/textfold"
)

// FileText is one source file to encode: its name, its index in the
// manifest's file table and its places with their lines as stored, or,
// for a large fresh file, the per-file folder to stream them from (dir,
// with the counts its file-table row was computed from, which the stream
// must give again).
type FileText struct {
	Name   string
	Index  int
	Places []extract.Place
	Dir    string
	Want   FileEntry
}

// FileCount is what the encoder wrote of one file: its lines (each piece
// of a split line counts) and their bytes with one LF each.
type FileCount struct {
	Lines int
	Text  int64
}

// cursor is the encoder's position in one file: the place, the number of
// the place's current line (a continuation line keeps the number of the
// line it continues) and what was written of the file so far (folded:
// its folded bytes, added to Encoder.Folded once the file is done, not
// once a line: a map write per line was 2 % of the encoder).
type cursor struct {
	f      FileText
	place  string
	lineNo int
	folded int64
	FileCount
}

// BuiltPart is an encoded part and the range of lines it holds, in the
// manifest's terms. Data is the encoder's buffer, valid until the emit
// function it was handed to returns.
type BuiltPart struct {
	Data      []byte
	ID        [IDSize]byte
	FirstFile int
	FirstLine int
	LastFile  int
	EndLine   int
}

// segRec documents one record of the segs section.
type segRec struct {
	file      uint32 // index into the part's files
	nameOff   uint32 // place name in strs
	nameLen   uint32
	lineNo    uint32 // 1-based line number of the first line within the place
	firstLine uint32 // index into the line table
	lines     uint32
}

// blockRec documents one record of the blck section.
type blockRec struct {
	firstLine uint32
	patchOff  uint32 // the block's patches in the orig section
	patchLen  uint32
	rawLen    uint32 // bytes of the original text of the block
	flags     uint32 // reserved, 0
}

// Encoder turns a run of files into parts (NewEncoder, then Encode once
// per chunk of files, then Release). After each Encode, Err, Folded and
// Counts give what the manifest's file table needs of the files encoded
// so far.
type Encoder struct {
	// emit takes each part as soon as it is finished, so a large file's
	// parts are never all held at once; its first error is kept in Err.
	emit func(BuiltPart) error
	// Err is the first error: of emit, or of a streamed file (FileText.Dir).
	Err error
	cur *partBuilder
	// Folded is the folded bytes written per file, by FileText.Index.
	Folded map[int]int64
	// Counts is the lines and text bytes written per file, by
	// FileText.Index (a split line counts each piece).
	Counts map[int]FileCount
	*encoderState
}

// encoderState is what an Encoder reuses from part to part and, through
// spareStates, from one encoder to the next: growing the gram table and
// the part's buffers again for each of a build's hundreds of small folders
// cost more than filling them (issue 35).
type encoderState struct {
	grams   *gramset.Set
	spare   *partBuilder // buffers of the last part
	data    []byte       // the last part's bytes (BuiltPart.Data)
	lineBuf []byte
	keyBuf  []uint32 // the keys of one line
	pieces  []string // of a line split while encoding
	// scanner folds each line and makes its keys (foldLine); its
	// buffer is reused.
	scanner textfold.KeyScanner
}

// spareStates holds the states of released encoders, at most
// maxSpareStates; more go to overflowStates. The list is not a sync.Pool:
// a pool drops what sat through two garbage collections, and a small-file
// build collects every few publishes, so its encoders made new states and
// grew every buffer again (a fifth of the bytes such a build allocated,
// issue 35). Past maxSpareStates (a run publishes on a goroutine per CPU)
// the pool keeps them as before, so a machine of many CPUs holds no more
// memory for long than a small one.
var spareStates struct {
	sync.Mutex
	free []*encoderState
}

var overflowStates = sync.Pool{New: func() any { return &encoderState{grams: gramset.New()} }}

const maxSpareStates = 4

// maxSpareData is the most bytes of part buffer a kept state holds on to:
// a state that built a part of large files (up to MaxBlocks*BlockTarget
// of text) gives up its part buffers rather than keep them for the next
// run of small ones.
const maxSpareData = 4 << 20

func takeState() *encoderState {
	spareStates.Lock()
	if n := len(spareStates.free); n > 0 {
		st := spareStates.free[n-1]
		spareStates.free[n-1] = nil
		spareStates.free = spareStates.free[:n-1]
		spareStates.Unlock()
		return st
	}
	spareStates.Unlock()
	return overflowStates.Get().(*encoderState)
}

func keepState(st *encoderState) {
	if cap(st.data) > maxSpareData {
		st.data, st.spare = nil, nil
	}
	spareStates.Lock()
	if len(spareStates.free) < maxSpareStates {
		spareStates.free = append(spareStates.free, st)
		spareStates.Unlock()
		return
	}
	spareStates.Unlock()
	overflowStates.Put(st)
}

type partBuilder struct {
	strs       []byte
	strIndex   map[string]uint32
	files      [][2]uint32
	fileIndex  map[int]uint32 // manifest index → part file
	segs       []segRec
	lines      []uint32
	fold       []byte
	blocks     []blockRec
	orig       []byte // patches of all blocks
	patchStart int    // orig offset where the open block's patches start
	patchEnd   int    // block offset where the last patch of the open block ends
	rawLen     int    // original bytes of the open block
	blockStart int    // fold offset where the open block starts
	blockLine  int    // first line of the open block
	grams      *gramset.Set
	lastFile   int // manifest index of the open segment's file
	lastPlace  string
	firstFile  int
	firstLine  int
	endFile    int
	endLine    int
}

// NewEncoder returns an encoder that hands each part to emit. BuiltPart.Data
// is valid until emit returns: the next part is built in the same buffer.
func NewEncoder(emit func(BuiltPart) error) *Encoder {
	return &Encoder{emit: emit, Folded: map[int]int64{}, Counts: map[int]FileCount{}, encoderState: takeState()}
}

// Release hands the encoder's buffers on to the next NewEncoder; the
// encoder must not be used after it (Err, Folded and Counts stay).
func (e *Encoder) Release() {
	if e.encoderState != nil {
		clear(e.pieces[:cap(e.pieces)])
		keepState(e.encoderState)
		e.encoderState = nil
	}
}

// Encode appends the parts of one chunk of files. A chunk starts a new
// part; a part closes when it has MaxBlocks blocks and more lines follow.
// A file with a dir is read from it a line at a time; one whose lines
// differ from the counts it was planned with sets Err (it changed while
// it was published). What was written of each file is in Counts.
func (e *Encoder) Encode(files []FileText) {
	for _, f := range files {
		c := &cursor{f: f}
		if f.Dir != "" && f.Places == nil {
			err := content.EachLine(f.Dir, func(place, line string) error {
				e.put(c, place, line)
				return e.Err
			})
			if err == nil && (c.Lines != f.Want.Lines || c.Text != f.Want.TextBytes) {
				err = fmt.Errorf("bodyindex: %s changed while it was published", f.Dir)
			}
			if err != nil {
				if e.Err == nil {
					e.Err = err
				}
				return
			}
		}
		for _, p := range f.Places {
			for _, line := range p.Lines {
				e.put(c, p.Name, line)
			}
		}
		e.Counts[f.Index] = c.FileCount
		e.Folded[f.Index] += c.folded
	}
	e.finishPart()
}

// put adds one stored line at c, first split when it is longer than
// extract.LineMaxRunes (a line of an index or per-file folder written
// before the cap: the encoder never holds more of a line than that).
func (e *Encoder) put(c *cursor, place, line string) {
	if !extract.NeedsSplit(line) {
		e.putPiece(c, place, line)
		return
	}
	e.pieces = extract.AppendStored(e.pieces[:0], line)
	for _, p := range e.pieces {
		e.putPiece(c, place, p)
	}
}

// putPiece adds one line of at most extract.LineMaxRunes runes at c. A
// continuation line keeps the number of the line before it; one that
// starts a place (which nothing continues) is taken as a line of its own,
// its mark replaced (same length) so that it reads so again.
func (e *Encoder) putPiece(c *cursor, place, line string) {
	if c.Lines == 0 || place != c.place {
		c.place, c.lineNo = place, 0
	}
	cont := extract.IsContinuation(line)
	if cont && c.lineNo == 0 {
		line, cont = "\uFFFD"+line[len(extract.ContinuationMark):], false
	}
	if !cont {
		c.lineNo++
	}
	c.folded += int64(e.addLine(c.f, place, c.lineNo, c.Lines, line, cont))
	c.Lines++
	c.Text += int64(len(line)) + 1
}

// addLine adds line fileLine of file f, line lineNo of its place, and
// returns the folded bytes it wrote (with the LF); a continuation line
// (cont) starts a segment of its own, whose first line has the number of
// the line it continues (doc.go, segs).
func (e *Encoder) addLine(f FileText, place string, lineNo, fileLine int, line string, cont bool) int {
	b := e.cur
	if b != nil && len(b.blocks) == MaxBlocks {
		e.finishPart()
		b = nil
	}
	if b == nil {
		b = e.newPart(f.Index, fileLine)
	}
	if strings.IndexByte(line, '\n') >= 0 {
		// Lines never hold LF (content.Decode splits there); keep the
		// line structure even if one did.
		line = strings.ReplaceAll(line, "\n", "\u2028")
	}
	if b.lastFile != f.Index || b.lastPlace != place || len(b.segs) == 0 || cont {
		fi, ok := b.fileIndex[f.Index]
		if !ok {
			fi = uint32(len(b.files))
			off, n := b.str(f.Name)
			b.files = append(b.files, [2]uint32{off, n})
			b.fileIndex[f.Index] = fi
		}
		off, n := b.str(place)
		b.segs = append(b.segs, segRec{file: fi, nameOff: off, nameLen: n, lineNo: uint32(lineNo), firstLine: uint32(len(b.lines))})
		b.lastFile, b.lastPlace = f.Index, place
	}
	b.segs[len(b.segs)-1].lines++
	start := len(b.fold)
	b.lines = append(b.lines, uint32(start))
	e.lineBuf = append(e.lineBuf[:0], line...)
	b.fold, b.orig, e.keyBuf = foldLine(&e.scanner, b.fold, b.orig, e.keyBuf[:0], e.lineBuf, start-b.blockStart, &b.patchEnd)
	b.grams.AddAll(e.keyBuf, uint64(1)<<uint(len(b.blocks)))
	b.fold = append(b.fold, '\n')
	b.rawLen += len(line) + 1
	b.endFile, b.endLine = f.Index, fileLine+1
	if len(b.fold)-b.blockStart >= BlockTarget {
		e.closeBlock()
	}
	return len(b.fold) - start
}

func (b *partBuilder) str(s string) (uint32, uint32) {
	if off, ok := b.strIndex[s]; ok {
		return off, uint32(len(s))
	}
	off := uint32(len(b.strs))
	b.strs = append(b.strs, s...)
	b.strIndex[s] = off
	return off, uint32(len(s))
}

// newPart starts a part at line fileLine of the file with manifest index
// file, in the buffers of the last part when there is one.
func (e *Encoder) newPart(file, fileLine int) *partBuilder {
	b := e.spare
	e.spare = nil
	if b == nil {
		b = &partBuilder{strIndex: map[string]uint32{}, fileIndex: map[int]uint32{}}
	} else {
		clear(b.strIndex)
		clear(b.fileIndex)
		*b = partBuilder{strs: b.strs[:0], strIndex: b.strIndex, files: b.files[:0], fileIndex: b.fileIndex,
			segs: b.segs[:0], lines: b.lines[:0], fold: b.fold[:0], blocks: b.blocks[:0], orig: b.orig[:0]}
	}
	b.grams, b.lastFile, b.firstFile, b.firstLine = e.grams, -1, file, fileLine
	e.grams.Clear()
	e.cur = b
	return b
}

func (e *Encoder) closeBlock() {
	b := e.cur
	if b == nil || len(b.lines) == b.blockLine {
		return
	}
	rec := blockRec{firstLine: uint32(b.blockLine), patchOff: uint32(b.patchStart), patchLen: uint32(len(b.orig) - b.patchStart), rawLen: uint32(b.rawLen)}
	b.blocks = append(b.blocks, rec)
	b.patchStart, b.patchEnd, b.rawLen = len(b.orig), 0, 0
	b.blockStart = len(b.fold)
	b.blockLine = len(b.lines)
}

func (e *Encoder) finishPart() {
	e.closeBlock()
	b := e.cur
	e.cur = nil
	if b == nil || len(b.lines) == 0 {
		return
	}
	b.lines = append(b.lines, uint32(len(b.fold)))
	grams := b.grams.Sorted()
	w := maskWidth(len(b.blocks))
	if WriteVersion == 2 {
		w = 8
	}
	// What a search reads first (blocks, gram index, grams) comes first,
	// so that skipping a part touches the fewest pages. Each section is
	// written straight into the part's buffer (doc.go gives the layout).
	secs := [...]section{
		{tagBlock, 4 + 4*5*len(b.blocks)},
		{tagGramIndex, 4 * ((len(grams) + GramIndexStep - 1) / GramIndexStep)},
		{tagGrams, 4 + (4+w)*len(grams)},
		{tagStrs, len(b.strs)},
		{tagFiles, 4 + 4*2*len(b.files)},
		{tagSegs, 4 + 4*6*len(b.segs)},
		{tagLines, 4 * len(b.lines)},
		{tagFold, len(b.fold)},
		{tagOrig, len(b.orig)},
	}
	size := partHeaderSize + sectionEntrySize*len(secs)
	for _, s := range secs {
		size += s.size
	}
	le := binary.LittleEndian
	data := appendUint32s(append(slices.Grow(e.data[:0], size), partMagic...), WriteVersion, uint32(len(secs)))
	off := partHeaderSize + sectionEntrySize*len(secs)
	for _, s := range secs {
		data = appendUint32s(data, s.tag, uint32(off), uint32(s.size))
		off += s.size
	}
	data = le.AppendUint32(data, uint32(len(b.blocks)))
	for _, r := range b.blocks {
		data = appendUint32s(data, r.firstLine, r.patchOff, r.patchLen, r.rawLen, r.flags)
	}
	for i := 0; i < len(grams); i += GramIndexStep {
		data = le.AppendUint32(data, grams[i].Key)
	}
	data = le.AppendUint32(data, uint32(len(grams)))
	for _, g := range grams {
		data = le.AppendUint32(data, g.Key)
	}
	for _, g := range grams {
		data = le.AppendUint64(data, g.Mask)[:len(data)+w] // its low w bytes
	}
	data = append(data, b.strs...)
	data = le.AppendUint32(data, uint32(len(b.files)))
	for _, f := range b.files {
		data = appendUint32s(data, f[0], f[1])
	}
	data = le.AppendUint32(data, uint32(len(b.segs)))
	for _, s := range b.segs {
		data = appendUint32s(data, s.file, s.nameOff, s.nameLen, s.lineNo, s.firstLine, s.lines)
	}
	data = appendUint32s(data, b.lines...)
	data = append(data, b.fold...)
	data = append(data, b.orig...)
	e.spare, e.data = b, data
	sum := sha256.Sum256(data)
	p := BuiltPart{Data: data, FirstFile: b.firstFile, FirstLine: b.firstLine, LastFile: b.endFile, EndLine: b.endLine}
	copy(p.ID[:], sum[:IDSize])
	if e.Err == nil {
		e.Err = e.emit(p)
	}
}

// appendUint32s appends vs, little-endian.
func appendUint32s(dst []byte, vs ...uint32) []byte {
	for _, v := range vs {
		dst = binary.LittleEndian.AppendUint32(dst, v)
	}
	return dst
}

// section is one tagged section of a part and its size in bytes.
type section struct {
	tag  uint32
	size int
}
