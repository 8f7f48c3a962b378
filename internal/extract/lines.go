package extract

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Long lines (issue 36). A line is the unit of everything downstream: the
// place TSVs, the body index's blocks and gram keys, a search hit, a
// preview row. One paragraph of a hostile .odt held 99 MB in one line, and
// the coordinator, which folds and encodes lines whole, needed 55 times
// the longest line (5.3 GiB). So a line is capped where it is made:
// Extract hands every reader's lines through capResult, once, for every
// format, and a line longer than LineMaxRunes runes leaves it as its first
// LineMaxRunes runes followed by continuation lines of the same place.
//
// A continuation line starts with ContinuationMark and repeats the last
// LineOverlapRunes runes of the line before it, then goes on with the
// text: a word of at most LineOverlapRunes runes that straddles a cut is
// whole in the continuation, so every such word is still found (a word
// inside the overlap is found in both). Cutting at a space or a
// punctuation mark instead would leave Japanese text without either, and
// phrases with spaces, unfindable across the cut; the overlap costs
// LineOverlapRunes/LineMaxRunes (1.6 %) of a long line only.
//
// The line keeps its number: the body index gives a continuation line the
// number of the line it continues (an Excel row stays row N, a text
// file's line N stays line N, bodyindex's segs), and search shows a hit in
// it without the mark (and, in an Excel row, without the cell, whose
// column it cannot count from there). Several words must then be in one
// piece of the line to match together.
//
// Why 16,384 runes: far above any real paragraph, Excel row or text line
// (an Excel cell holds at most 32,767 characters), so real documents are
// never split, while a line's folded copy (at most 64 KiB of UTF-8) stays
// within one of the body index's 64 KiB blocks, its gram keys within a few
// hundred KiB of the encoder's memory, and a hit line is cut for display
// anyway (search: 1,000 characters around the match).
const (
	LineMaxRunes     = 16384
	LineOverlapRunes = 256
	// ContinuationMark starts a continuation line. U+FFFF is a Unicode
	// noncharacter, reserved for a program's internal use and never text;
	// an extracted line that starts with one has it replaced by U+FFFD
	// (replacedMark) so that it cannot pass for a continuation.
	ContinuationMark = "\uFFFF"
	replacedMark     = "\uFFFD"
)

// IsContinuation reports whether a stored line continues the line before
// it (it starts with ContinuationMark).
func IsContinuation(line string) bool { return strings.HasPrefix(line, ContinuationMark) }

// AppendLine appends one extracted line to dst as stored lines: the line
// itself when it holds at most LineMaxRunes runes, else its pieces (the
// first one unmarked, the others continuation lines). A leading
// ContinuationMark of the line becomes U+FFFD.
func AppendLine(dst []string, line string) []string {
	if IsContinuation(line) {
		line = replacedMark + line[len(ContinuationMark):]
	}
	return appendPieces(dst, line, false)
}

// AppendStored is AppendLine for a line read back from a place TSV or a
// body index, which may be a continuation line already (its mark kept)
// and, written by an earlier version, longer than LineMaxRunes.
func AppendStored(dst []string, line string) []string {
	if IsContinuation(line) {
		return appendPieces(dst, line[len(ContinuationMark):], true)
	}
	return appendPieces(dst, line, false)
}

// NeedsSplit reports whether a stored line must go through AppendStored:
// it holds more than LineMaxRunes runes besides its mark. Lines of at most
// LineMaxRunes bytes never do, which is nearly all of them.
func NeedsSplit(line string) bool {
	if len(line) <= LineMaxRunes {
		return false
	}
	line = strings.TrimPrefix(line, ContinuationMark)
	return len(line) > LineMaxRunes && utf8.RuneCountInString(line) > LineMaxRunes
}

// appendPieces appends body as pieces of at most LineMaxRunes runes, each
// after the first starting LineOverlapRunes runes before the end of the
// one before it; every piece but the first is marked, the first when cont.
func appendPieces(dst []string, body string, cont bool) []string {
	mark := func(s string) string {
		if cont {
			return ContinuationMark + s
		}
		return s
	}
	for {
		if len(body) <= LineMaxRunes {
			return append(dst, mark(body))
		}
		end, over := runeOffsets(body)
		if end == len(body) {
			return append(dst, mark(body))
		}
		dst = append(dst, mark(body[:end]))
		body, cont = body[over:], true
	}
}

// PieceEnd returns where the first piece of a line's text s ends (the
// byte offset after LineMaxRunes runes; len(s) when s is no longer) and
// where the next piece starts (LineOverlapRunes runes before that): the
// cuts of AppendLine, for a reader that splits a line as it reads it.
// The cut depends only on the first LineMaxRunes runes of s.
func PieceEnd(s string) (end, next int) { return runeOffsets(s) }

// runeOffsets returns the byte offset after LineMaxRunes runes of s (len(s)
// when s is shorter) and the byte offset LineOverlapRunes runes before it.
func runeOffsets(s string) (end, over int) {
	n := 0
	for i := range s {
		if n == LineMaxRunes-LineOverlapRunes {
			over = i
		}
		if n == LineMaxRunes {
			return i, over
		}
		n++
	}
	return len(s), over
}

// DefaultTextBudget is Limits.TextBudget when unset: the most text one
// file may give, the UTF-8 bytes of all its lines. Above the largest ZIP
// part a reader accepts (ZipPartBytes, 100 MB), so that a document whose
// text fits one part is never refused for its text, and far above real
// documents (a 1,000-page PDF gives a few MB); what it refuses is a
// multi-part bomb (ZipTotalBytes allows 300 MB). The coordinator never
// holds a file's text whole (bodyindex streams large files), so the budget
// bounds the index and the time a file takes, not the coordinator's memory.
const DefaultTextBudget = 128 << 20

// capResult applies the per-file text budget and the line cap to what a
// reader returned: a file whose lines hold more than budget bytes fails
// with MsgTextTooLarge; lines longer than LineMaxRunes are split.
func capResult(res *Result, budget int64) error {
	var total int64
	long := false
	for _, p := range res.Places {
		for _, l := range p.Lines {
			total += int64(len(l))
			long = long || len(l) > LineMaxRunes || IsContinuation(l)
		}
	}
	if total > budget {
		return &Error{Msg: MsgTextTooLarge, Cause: fmt.Errorf("extract: the file's text is %d bytes, over the budget of %d", total, budget)}
	}
	if !long {
		return nil
	}
	for i := range res.Places {
		lines := res.Places[i].Lines
		var out []string
		for j, l := range lines {
			if len(l) <= LineMaxRunes && !IsContinuation(l) {
				if out != nil {
					out = append(out, l)
				}
				continue
			}
			if out == nil {
				out = append(make([]string, 0, len(lines)+1), lines[:j]...)
			}
			out = AppendLine(out, l)
		}
		if out != nil {
			res.Places[i].Lines = out
		}
	}
	return nil
}
