package format

import (
	"encoding/binary"

	"github.com/fumibako/fumibako/internal/textfold"
)

// foldLine appends the folded form of a line s to fold (textfold.Append's
// bytes) and the differences between s and it to patches, in one walk of
// sc (issue 35: folding a line and then walking it again for its patches
// cost two passes over every line that folding changes, most of them).
// Each run of folding units (textfold.Scanner) whose folded bytes differ
// from their original bytes becomes one patch, encoded as uvarint(gap
// from the end of the previous patch), uvarint(folded length),
// uvarint(original length), original bytes; base is the block offset
// where the line's folded form starts, and prevEnd carries the end of the
// previous patch (block offset). A line that folds to itself adds no
// patch.
//
// The same walk makes the line's gram keys (textfold.AppendKeys's keys of
// its folded form), appended to keys: the keys of a second walk over the
// folded line cost as much again as folding (issue 35).
func foldLine(sc *textfold.KeyScanner, fold, patches []byte, keys []uint32, s []byte, base int, prevEnd *int) ([]byte, []byte, []uint32) {
	start := len(fold)
	fpos := base // folded offset of the unit being looked at
	runStart, runFold := -1, 0
	origStart := 0
	flush := func(origEnd int) {
		if runStart < 0 {
			return
		}
		patches = binary.AppendUvarint(patches, uint64(runStart-*prevEnd))
		patches = binary.AppendUvarint(patches, uint64(runFold))
		patches = binary.AppendUvarint(patches, uint64(origEnd-origStart))
		patches = append(patches, s[origStart:origEnd]...)
		*prevEnd = runStart + runFold
		runStart = -1
	}
	sc.Reset(s, keys)
	for {
		if n := sc.SkipSame(); n > 0 {
			flush(sc.End() - n)
			fold = append(fold, s[sc.End()-n:sc.End()]...)
			fpos += n
		}
		if !sc.Scan() {
			break
		}
		folded := sc.Folded()
		fold = append(fold, folded...)
		if sc.Unchanged() {
			flush(sc.Start())
		} else {
			if runStart < 0 {
				runStart, runFold, origStart = fpos, 0, sc.Start()
			}
			runFold += len(folded)
		}
		fpos += len(folded)
	}
	flush(len(s))
	return fold, patches, sc.Keys(fold[start:])
}

// applyPatches rebuilds original text from folded text and its patches
// (block offsets); it returns false when the patches do not fit.
func applyPatches(dst, folded, patches []byte) ([]byte, bool) {
	pos := 0
	for len(patches) > 0 {
		gap, n1 := binary.Uvarint(patches)
		if n1 <= 0 {
			return nil, false
		}
		flen, n2 := binary.Uvarint(patches[n1:])
		if n2 <= 0 {
			return nil, false
		}
		olen, n3 := binary.Uvarint(patches[n1+n2:])
		if n3 <= 0 {
			return nil, false
		}
		patches = patches[n1+n2+n3:]
		if gap > uint64(len(folded)-pos) || flen > uint64(len(folded)-pos)-gap || olen > uint64(len(patches)) {
			return nil, false
		}
		start := pos + int(gap)
		dst = append(dst, folded[pos:start]...)
		dst = append(dst, patches[:olen]...)
		patches = patches[olen:]
		pos = start + int(flen)
	}
	return append(dst, folded[pos:]...), true
}
