package search

import (
	"context"
	"errors"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search/linedfa"
	"github.com/fumibako/fumibako/internal/textfold"
)

// searcher searches folders for one worker.
type searcher struct {
	ctx      context.Context
	q        *Query
	run      *runState
	kanaBuf  []byte
	kanaLine []byte
	lineBuf  []byte
	dfa      *linedfa.Scanner // of q.primary.dfa, made on first use
	starts   []int            // line starts of the block being scanned
	blockBuf []byte           // folded text of the block, with a BlockFile
	names    []nameHit        // the folder's file-name hits, by file
	nextName int              // the first of names not added yet
}

// full reports whether the hits found so far in this task and the tasks
// before it reach the cap plus one (one more tells that the cap was
// exceeded): then no later hit of this task will be emitted. It never
// overcounts: emittedBefore is read before the walk, and the emitter marks
// a task consumed before adding its hits to emittedBefore.
func (s *searcher) full(t *task) bool {
	if s.q.max <= 0 {
		return false
	}
	n := s.run.emittedBefore.Load() + t.found.Load()
	for p, k := t.prev, 0; p != nil && k < 256; p, k = p.prev, k+1 {
		if p.consumed.Load() {
			break
		}
		n += p.found.Load()
	}
	return n > int64(s.q.max)
}

// folder searches one folder's body index.
func (s *searcher) folder(t *task) {
	t0 := time.Now()
	f, err := t.only.open(t.dir)
	t.stats.Open += time.Since(t0)
	if err != nil {
		var rb *format.RebuildError
		t.problems = append(t.problems, Problem{Folder: t.folderName(), Rebuild: errors.As(err, &rb), Err: err})
		return
	}
	if f == nil {
		return // unpublished meanwhile
	}
	defer f.Close()
	t.stats.Folders++
	pass := make([]bool, f.NumFiles())
	any := false
	for i := range pass {
		pass[i] = s.fileOK(t, f.FileName(i)) && s.q.opts.Dates.Contains(f.FileInfo(i).ModTime)
		any = any || pass[i]
	}
	if !any {
		t.stats.FoldersFiltered++
		return
	}
	s.names = s.names[:0]
	if s.q.searchesNames() {
		for i := range pass {
			if pass[i] {
				if h, ok := s.nameHit(t, f, i); ok {
					s.names = append(s.names, nameHit{file: i, hit: h})
				}
			}
		}
	}
	s.nextName = 0
	defer s.flushNames(t, f.NumFiles())
	if s.q.listing {
		return
	}
	summaryPass := t.only.passFor(f)
	for i := 0; i < f.NumParts(); i++ {
		if s.ctx.Err() != nil || s.full(t) {
			return
		}
		first, last := f.PartFiles(i)
		if !slices.Contains(pass[first:last+1], true) {
			t.stats.PartsFiltered++
			continue
		}
		if summaryPass != nil && !summaryPass[i] {
			t.stats.Parts++
			t.stats.PartsSkipped++
			continue
		}
		p := f.Part(i)
		if p == nil {
			var rb *format.RebuildError
			t.problems = append(t.problems, Problem{Folder: t.folderName(), Rebuild: errors.As(f.PartErr(i), &rb), Err: f.PartErr(i)})
			continue
		}
		if err := s.part(t, f, first, p); err != nil {
			t.problems = append(t.problems, Problem{Folder: t.folderName(), Err: err})
		}
	}
}

// nameHit is a file-name hit waiting for its place in the task's order:
// before the first content hit of its file.
type nameHit struct {
	file int // index in the folder's file table
	hit  Hit
}

// flushNames adds the waiting file-name hits of files before file end.
func (s *searcher) flushNames(t *task, end int) {
	for s.nextName < len(s.names) && s.names[s.nextName].file < end {
		if s.ctx.Err() != nil {
			return
		}
		t.add(s.names[s.nextName].hit)
		s.nextName++
	}
}

// nameHit matches the words against file i's path under its index (its
// folders and name), with the semantics of a line: folding, --case,
// --kana, regex, every word and no excluded one.
func (s *searcher) nameHit(t *task, f *format.Folder, i int) (Hit, bool) {
	name := f.FileName(i)
	rel := name
	if t.rel != "" {
		rel = t.rel + `\` + name
	}
	fk, _ := extract.KindOf(name)
	info := f.FileInfo(i)
	h := Hit{Index: t.index, RelPath: rel, FileKind: fk, Kind: KindFileName, Text: rel,
		Modified: info.ModTime, Size: info.Size}
	if s.q.listing {
		return h, true
	}
	var region []byte
	if s.q.opts.Case {
		region = []byte(rel)
	} else {
		region = []byte(textfold.String(rel))
	}
	if s.q.opts.Kana {
		region = textfold.AppendKana(nil, region)
	}
	if !s.matches(region) {
		return Hit{}, false
	}
	var ms [][2]int
	for _, tm := range s.q.pos {
		ms = tm.all(region, ms)
	}
	ms = mergeRanges(ms)
	if !s.q.opts.Case && string(region) != rel {
		textfold.MapSpans([]byte(rel), ms)
		ms = mergeRanges(ms)
	}
	h.Matches = ms
	return h, true
}

// open opens the folder's body index, mapping only the parts the summary
// lets through while its manifest still lists the parts it was written
// for (all of them without a summary).
func (ps *partSet) open(dir string) (*format.Folder, error) {
	if ps == nil {
		return format.OpenFolder(dir)
	}
	return format.OpenFolderSome(dir, ps.ids, ps.pass)
}

// passFor returns, per part of f, whether the summary lets it through, or
// nil (every part) when f's manifest no longer lists the parts the summary
// was written for.
func (ps *partSet) passFor(f *format.Folder) []bool {
	if ps == nil || len(ps.ids) != f.NumParts() {
		return nil
	}
	for k, id := range ps.ids {
		if f.PartID(k) != id {
			return nil
		}
	}
	return ps.pass
}

func (t *task) folderName() string {
	if t.rel == "" {
		return t.index
	}
	return t.index + `\` + t.rel
}

// fileOK applies the file filters: --folder down to a file, --name, --kind.
func (s *searcher) fileOK(t *task, name string) bool {
	if !s.q.fileInFolder(t.relSegs, name) || !s.q.names.match(name) {
		return false
	}
	if s.q.kinds != nil {
		k, _ := extract.KindOf(name)
		return s.q.kinds[k]
	}
	return true
}

// dateOK applies the date filter to file i of a part (Options.Dates).
func (s *searcher) dateOK(pc *partCtx, i int) bool {
	if s.q.opts.Dates.IsZero() {
		return true
	}
	fi := pc.folderFile(i)
	return fi < pc.f.NumFiles() && s.q.opts.Dates.Contains(pc.f.FileInfo(fi).ModTime)
}

// placeOK applies --no-shapes and --no-comments.
func (s *searcher) placeOK(place string) bool {
	if !s.q.opts.NoShapes && !s.q.opts.NoComments {
		return true
	}
	_, obj := splitKind(place)
	if s.q.opts.NoShapes && (obj == extract.ObjectShape || strings.HasPrefix(obj, extract.ObjectEmbed)) {
		return false
	}
	return !(s.q.opts.NoComments && obj == extract.ObjectComment)
}

// partCtx is what scanning one part needs about its files and segments.
// A segment is decoded, and its filter verdict, cell prefix and label
// worked out, when a line of it is first looked at: a part has hundreds
// of segments and a rare word touches a few.
type partCtx struct {
	index    string
	rel      string // the folder, `\` separated
	f        *format.Folder
	base     int   // the folder's index of the part's first file
	inFolder []int // per file of the part, its folder index, once needed
	p        *format.Part
	files    []string
	fileOK   []bool
	kinds    []extract.Kind
	relPath  []string         // per file, once needed
	segs     map[int]*segInfo // decoded segments by index
	cur      *segInfo         // the segment of the last line looked at
}

// segInfo is a decoded segment and what is known of it.
type segInfo struct {
	format.Segment
	ok, prefix, labeled bool
	label               string
}

// segmentFor returns the segment holding line gl of the part.
func (s *searcher) segmentFor(pc *partCtx, gl int) (*segInfo, error) {
	if c := pc.cur; c != nil && gl >= c.FirstLine && gl < c.FirstLine+c.Lines {
		return c, nil
	}
	i, sg, err := pc.p.SegmentFor(gl)
	if err != nil {
		return nil, err
	}
	si := pc.segs[i]
	if si == nil {
		si = &segInfo{Segment: sg, ok: pc.fileOK[sg.File] && s.placeOK(sg.Place), prefix: cellPrefixed(pc.kinds[sg.File], sg.Place)}
		if pc.segs == nil {
			pc.segs = map[int]*segInfo{}
		}
		pc.segs[i] = si
	}
	pc.cur = si
	return si, nil
}

// folderFile returns the folder's file-table index of the part's file i.
// A part lists only files with text, in file-table order from base on.
func (pc *partCtx) folderFile(i int) int {
	if pc.inFolder == nil {
		pc.inFolder = make([]int, len(pc.files))
		k := pc.base
		for j, n := range pc.files {
			for k < pc.f.NumFiles() && pc.f.FileName(k) != n {
				k++
			}
			pc.inFolder[j] = k
		}
	}
	return pc.inFolder[i]
}

// path returns the path of file i of the part under its index.
func (pc *partCtx) path(i int) string {
	if pc.relPath[i] == "" {
		if pc.rel == "" {
			pc.relPath[i] = pc.files[i]
		} else {
			pc.relPath[i] = pc.rel + `\` + pc.files[i]
		}
	}
	return pc.relPath[i]
}

// part searches one part of f, whose first file is file base of f.
func (s *searcher) part(t *task, f *format.Folder, base int, p *format.Part) error {
	t.stats.Parts++
	t0 := time.Now()
	cand := p.Candidates(s.q.keys)
	if cand == 0 {
		t.stats.PartsSkipped++
		t.stats.BlocksSkipped += p.Blocks()
		t.stats.Filter += time.Since(t0)
		return nil
	}
	files, err := p.Files()
	if err != nil {
		t.stats.Filter += time.Since(t0)
		return err
	}
	pc := &partCtx{index: t.index, rel: t.rel, f: f, base: base, p: p, files: files, fileOK: make([]bool, len(files)),
		kinds: make([]extract.Kind, len(files)), relPath: make([]string, len(files))}
	filtered := s.q.opts.NoShapes || s.q.opts.NoComments
	for i, n := range files {
		pc.fileOK[i] = s.fileOK(t, n) && s.dateOK(pc, i)
		pc.kinds[i], _ = extract.KindOf(n)
		filtered = filtered || !pc.fileOK[i]
	}
	allowed := p.AllBlocks()
	if filtered {
		segs, err := p.Segments()
		if err != nil {
			t.stats.Filter += time.Since(t0)
			return err
		}
		allowed = 0
		for _, sg := range segs {
			if pc.fileOK[sg.File] && s.placeOK(sg.Place) {
				allowed |= blockMask(p, sg.FirstLine, sg.FirstLine+sg.Lines)
			}
		}
	}
	before := bits.OnesCount64(cand)
	cand &= allowed
	t.stats.BlocksSkipped += p.Blocks() - before
	t.stats.Filter += time.Since(t0)
	if cand == 0 {
		t.stats.PartsFiltered++
		return nil
	}
	var bf *format.BlockFile
	if bits.OnesCount64(cand) >= blockFileMin {
		if f, err := p.OpenBlocks(); err == nil {
			bf = f
			defer f.Close()
		}
	}
	for cand != 0 {
		b := bits.TrailingZeros64(cand)
		cand &^= 1 << uint(b)
		if s.ctx.Err() != nil || s.full(t) {
			return nil
		}
		if err := s.block(t, pc, b, bf); err != nil {
			return err
		}
	}
	return nil
}

// blockMask returns the blocks holding any of the lines [first, end).
func blockMask(p *format.Part, first, end int) uint64 {
	var m uint64
	for b := 0; b < p.Blocks(); b++ {
		bf, be := p.BlockLines(b)
		if bf < end && first < be {
			m |= 1 << uint(b)
		}
	}
	return m
}

// matches applies every word to a line's searchable text.
func (s *searcher) matches(region []byte) bool {
	for _, t := range s.q.pos {
		if !t.find(region) {
			return false
		}
	}
	for _, t := range s.q.neg {
		if t.find(region) {
			return false
		}
	}
	return true
}

// hit builds the Hit of a matching line. region is the searched text in
// the match space, starting at byte off of the line; foldedLine is the
// stored folded line (for mapping offsets back without --case).
func (s *searcher) hit(pc *partCtx, si *segInfo, gl int, line string, foldedLine, region []byte, off int) Hit {
	sg := si.Segment
	fk := pc.kinds[sg.File]
	h := Hit{
		Index:    pc.index,
		RelPath:  pc.path(sg.File),
		FileKind: fk,
		Place:    sg.Place,
		Kind:     placeKind(fk, sg.Place),
		Row:      sg.LineNo + gl - sg.FirstLine,
		Line:     sg.LineNo + gl - sg.FirstLine,
		Text:     line,
	}
	var ms [][2]int
	for _, t := range s.q.pos {
		ms = t.all(region, ms)
	}
	for i := range ms {
		ms[i][0] += off
		ms[i][1] += off
	}
	ms = mergeRanges(ms)
	if !s.q.opts.Case && line != string(foldedLine) {
		// Map folded spans back to the original line (one pass).
		textfold.MapSpans([]byte(line), ms)
		ms = mergeRanges(ms)
	}
	h.Matches = ms
	if fi := pc.folderFile(sg.File); fi < pc.f.NumFiles() && pc.f.FileName(fi) == pc.files[sg.File] {
		info := pc.f.FileInfo(fi)
		h.Modified, h.Size = info.ModTime, info.Size
	}
	if !h.dropMark() {
		// A continuation line starts inside its row: its cells cannot
		// be counted, so the label names the row only.
		h.setCells()
	}
	if !si.labeled {
		si.label, si.labeled = PlaceLabel(fk, sg.Place), true
	}
	h.Label = h.label(si.label)
	h.PageEstimate = IsPageEstimate(h.Place)
	h.OCR = IsOCR(fk, h.Place)
	h.shorten()
	return h
}

// mergeRanges sorts ranges and merges overlapping or touching ones.
func mergeRanges(ms [][2]int) [][2]int {
	if len(ms) == 0 {
		return nil
	}
	slices.SortFunc(ms, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	out := ms[:1]
	for _, m := range ms[1:] {
		last := &out[len(out)-1]
		if m[0] < last[1] {
			last[1] = max(last[1], m[1])
			continue
		}
		if m[1] > m[0] {
			out = append(out, m)
		}
	}
	return out
}
