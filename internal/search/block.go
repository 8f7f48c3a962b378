package search

import (
	"bytes"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/search/linedfa"
	"github.com/fumibako/fumibako/internal/textfold"
)

// view is the text of a block in one space (folded or original) with the
// start of every line in it (LF ends each line).
type view struct {
	text   []byte
	starts []int
}

func (v *view) line(i int) []byte { return v.text[v.starts[i] : v.starts[i+1]-1] }

// blockFileMin is how many blocks of a part a search scans before it
// reads them with plain reads rather than through the mapping
// (format.BlockFile).
var blockFileMin = 4

// block scans block b of the part, read through bf when it is not nil.
func (s *searcher) block(t *task, pc *partCtx, b int, bf *format.BlockFile) error {
	t0 := time.Now()
	defer func() { t.stats.Scan += time.Since(t0) }()
	t.stats.Blocks++
	bs, err := s.openBlock(t, pc, b, bf)
	if err != nil {
		return err
	}
	prim := s.q.primary
	scan := bs.mv
	if s.q.opts.Case && prim.needle == nil {
		_, k, err := bs.original()
		if err != nil {
			return err
		}
		scan = k
	}
	var dfa *linedfa.Scanner
	if prim.dfa != nil {
		if s.dfa == nil {
			s.dfa = prim.dfa.NewScanner()
		}
		dfa = s.dfa
	}
	li := 0
	for from := 0; from < len(scan.text); {
		pos, ok := s.nextMatch(scan.text, from, dfa)
		if !ok || pos >= len(scan.text) {
			break // no more, or an empty match after the last line's LF
		}
		// Matches come in order: walk the line starts forward (a binary
		// search per match cost a sixth of a regex scan).
		for scan.starts[li+1] <= pos {
			li++
		}
		from = scan.starts[li+1]
		if prim.needle != nil && dfa != nil {
			// Many lines may hold the needle (`-`, 株式会社): the DFA
			// drops those that cannot match before regexp runs.
			if _, ok := dfa.NextLine(scan.text[:from], scan.starts[li]); !ok {
				continue
			}
		}
		if done, err := s.lineHit(t, pc, bs, li); err != nil || done {
			return err
		}
	}
	return nil
}

// nextMatch returns where the primary word next matches in text from
// from on (the start of its line for the DFA).
func (s *searcher) nextMatch(text []byte, from int, dfa *linedfa.Scanner) (int, bool) {
	prim := s.q.primary
	switch {
	case prim.needle != nil:
		i := bytes.Index(text[from:], prim.needle)
		return from + i, i >= 0
	case dfa != nil:
		return dfa.NextLine(text, from)
	}
	loc := prim.scan.FindIndex(text[from:])
	if loc == nil {
		return 0, false
	}
	return from + loc[0], true
}

// lineHit checks line li of the block, where the primary word matched,
// against the whole query and adds its hit; done is true once the search
// has enough hits.
func (s *searcher) lineHit(t *task, pc *partCtx, bs *blockScan, li int) (done bool, err error) {
	gl := bs.first + li
	si, err := s.segmentFor(pc, gl)
	if err != nil || !si.ok {
		return false, err
	}
	var text []byte
	if s.q.opts.Case {
		o, err := bs.origLine(li)
		if err != nil {
			return false, err
		}
		text = o
		if s.q.opts.Kana {
			s.kanaLine = textfold.AppendKana(s.kanaLine[:0], o)
			text = s.kanaLine
		}
	} else {
		text = bs.mv.line(li)
	}
	off := 0
	switch {
	case bytes.HasPrefix(text, continuationMark):
		// A continuation line (extract.LineMaxRunes): all of it after
		// the mark is text, a shape's or comment's too.
		off = len(continuationMark)
	case si.prefix:
		tab := bytes.IndexByte(text, '\t')
		if tab < 0 {
			return false, nil
		}
		off = tab + 1
	}
	region := text[off:]
	if !s.matches(region) {
		return false, nil
	}
	o, err := bs.origLine(li)
	if err != nil {
		return false, err
	}
	tb := time.Now()
	s.flushNames(t, pc.folderFile(si.File)+1)
	t.add(s.hit(pc, si, gl, string(o), bs.fv.line(li), region, off))
	t.stats.Build += time.Since(tb)
	return s.full(t), nil
}

// blockScan is one block being scanned: its folded text (fv), the same
// in the match space (mv: kana folded too) and, read when needed, its
// original text.
type blockScan struct {
	s          *searcher
	t          *task
	p          *format.Part
	b          int
	first, end int // the block's first and last line in the part
	fv, mv     *view
	ov, okv    *view // original, original in the match space (kana)
	lr         *format.LineReader
	lastLi     int
	lastLine   []byte
}

// openBlock reads the folded text of block b (through bf when it is not
// nil) and the starts of its lines.
func (s *searcher) openBlock(t *task, pc *partCtx, b int, bf *format.BlockFile) (*blockScan, error) {
	p := pc.p
	var folded []byte
	var base int
	var err error
	if bf != nil {
		folded, base, err = bf.Folded(b, s.blockBuf)
		s.blockBuf = folded
	} else {
		folded, base, err = p.Folded(b)
	}
	if err != nil {
		return nil, err
	}
	t.stats.BytesRead += int64(len(folded))
	first, end := p.BlockLines(b)
	// One buffer per searcher: nothing keeps a block's views after it.
	starts := s.starts[:0]
	for i := first; i <= end; i++ {
		starts = append(starts, p.LineStart(i)-base)
	}
	s.starts = starts
	bs := &blockScan{s: s, t: t, p: p, b: b, first: first, end: end, lastLi: -1}
	bs.fv = &view{text: folded, starts: starts}
	bs.mv = bs.fv
	if s.q.opts.Kana {
		s.kanaBuf = textfold.AppendKana(s.kanaBuf[:0], folded)
		bs.mv = &view{text: s.kanaBuf, starts: starts}
	}
	return bs, nil
}

// original decodes the block's original text once: the text and the
// same in the match space.
func (bs *blockScan) original() (*view, *view, error) {
	if bs.ov != nil {
		return bs.ov, bs.okv, nil
	}
	text, err := bs.p.Original(bs.b)
	if err != nil {
		return nil, nil, err
	}
	bs.t.stats.BytesRead += int64(len(text))
	st := make([]int, 0, bs.end-bs.first+1)
	st = append(st, 0)
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		st = append(st, i)
	}
	bs.ov = &view{text: text, starts: st}
	bs.okv = bs.ov
	if bs.s.q.opts.Kana {
		bs.okv = &view{text: textfold.AppendKana(nil, text), starts: st}
	}
	return bs.ov, bs.okv, nil
}

// origLine returns the original text of line li of the block: from the
// whole block when it was decoded, else through a LineReader (only the
// patches of that line). The result is valid until the next call with
// another line.
func (bs *blockScan) origLine(li int) ([]byte, error) {
	if li == bs.lastLi {
		return bs.lastLine, nil
	}
	if bs.ov != nil {
		bs.lastLi, bs.lastLine = li, bs.ov.line(li)
		return bs.lastLine, nil
	}
	if bs.lr == nil {
		var err error
		if bs.lr, err = bs.p.LineReader(bs.b); err != nil {
			return nil, err
		}
	}
	s := bs.s
	line, err := bs.lr.Line(s.lineBuf[:0], bs.first+li)
	if err != nil {
		return nil, err
	}
	s.lineBuf = line
	bs.t.stats.BytesRead += int64(len(line))
	bs.lastLi, bs.lastLine = li, line
	return line, nil
}
