package ooxml

import (
	"archive/zip"
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// ErrOverlap is in the chain of the failure of a ZIP whose entries share
// compressed bytes: no writer makes one, and it is how an overlap bomb
// (every entry pointing at the same small deflate stream) inflates far
// more than its size. The failure also wraps zip.ErrFormat: such a file
// is a broken ZIP (MsgCorrupt).
var ErrOverlap = errors.New("zip entries share compressed data")

// OverlapError names two entries whose compressed data overlap.
type OverlapError struct {
	A, B   string // entry names, A stored first
	Shared int64  // compressed bytes shared by A and B
}

func (e *OverlapError) Error() string {
	return fmt.Sprintf("zip entries %s and %s share %d compressed bytes", e.A, e.B, e.Shared)
}

func (e *OverlapError) Unwrap() []error { return []error{ErrOverlap, zip.ErrFormat} }

// logLine is the indexing_log.txt line of the refusal (the recorded
// message stays the generic corrupt-file one, reference/extraction.md §13).
func (e *OverlapError) logLine() string {
	return fmt.Sprintf("    ZIP の複数のエントリが同じ圧縮データを指しています（ZIP 爆弾の疑い）: %s と %s（%d バイト）", e.A, e.B, e.Shared)
}

// checkOverlap refuses a ZIP in which two entries' compressed data
// [DataOffset, DataOffset+CompressedSize) overlap, before anything is
// inflated. Entries whose local header cannot be read are left to the
// reader, which reports them when they are opened.
func checkOverlap(zr *zip.Reader) error {
	type span struct {
		start, end int64
		name       string
	}
	spans := make([]span, 0, len(zr.File))
	for _, f := range zr.File {
		if f.CompressedSize64 == 0 {
			continue
		}
		off, err := f.DataOffset()
		if err != nil || off < 0 {
			continue
		}
		end := off + int64(f.CompressedSize64)
		if end < off { // a size that wraps around: no real data range
			continue
		}
		spans = append(spans, span{off, end, f.Name})
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var last span // the span reaching furthest so far
	for i, s := range spans {
		if i > 0 && s.start < last.end {
			return &OverlapError{A: last.name, B: s.name, Shared: min(last.end, s.end) - s.start}
		}
		if s.end > last.end {
			last = s
		}
	}
	return nil
}
