package biff_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// TestRecordReader reads a stream record by record ([MS-XLS] 2.1.4: a
// 2-byte type, a 2-byte size, the data): types, data and offsets as
// written, CONTINUE records joined as segments, and the ends a real
// stream has (padding to its sector, a record cut by the end) read as the
// end of the stream.
func TestRecordReader(t *testing.T) {
	var b fixture.Biff
	b.Rec(biff.RBOF, uint16(0x0600), uint16(biff.DtGlobals)).
		Rec(0x00FC, "first").
		Rec(biff.RContinue, "second").
		Rec(biff.RContinue, "third").
		Rec(biff.REOF)
	stream := b.Buf.Bytes()
	tests := []struct {
		name  string
		extra []byte
	}{
		{"exact", nil},
		{"padded with three bytes", []byte{0, 0, 0}},
		{"a record cut by the end", []byte{0x01, 0x02, 0x40, 0x00, 'x'}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rr := biff.NewRecordReader(bytes.NewReader(append(append([]byte{}, stream...), tt.extra...)))
			typ, data, off, err := rr.Next()
			if err != nil || typ != biff.RBOF || off != 0 || len(data) != 4 {
				t.Fatalf("BOF: %#x %d bytes at %d, %v", typ, len(data), off, err)
			}
			typ, data, off, err = rr.Next()
			if err != nil || typ != 0x00FC || off != 8 || string(data) != "first" {
				t.Fatalf("SST: %#x %q at %d, %v", typ, data, off, err)
			}
			segs, err := rr.WithContinues(data, sheet.NewBudget())
			if err != nil || len(segs) != 3 || string(segs[0]) != "first" || string(segs[1]) != "second" || string(segs[2]) != "third" {
				t.Fatalf("continues: %q, %v", segs, err)
			}
			if typ, _, _, err = rr.Next(); err != nil || typ != biff.REOF {
				t.Fatalf("EOF record: %#x, %v", typ, err)
			}
			if _, _, _, err = rr.Next(); err != io.EOF {
				t.Fatalf("after the last record: %v, want io.EOF", err)
			}
		})
	}
}

// TestWithContinuesBudget: the text a workbook's records hold counts
// against the budget (sheet.TextCap, made small here), so a stream of
// endless CONTINUE records stops at it.
func TestWithContinuesBudget(t *testing.T) {
	old := sheet.TextCap
	sheet.TextCap = 1 << 20
	defer func() { sheet.TextCap = old }()
	var b fixture.Biff
	b.Rec(0x00FC, bytes.Repeat([]byte{'a'}, 8000))
	for range 2000 {
		b.Rec(biff.RContinue, bytes.Repeat([]byte{'b'}, 8000))
	}
	rr := biff.NewRecordReader(bytes.NewReader(b.Buf.Bytes()))
	_, data, _, err := rr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rr.WithContinues(data, sheet.NewBudget()); !errors.Is(err, sheet.ErrTooMuchText) {
		t.Fatalf("16 MB of continued records under a 1 MiB cap: %v, want ErrTooMuchText", err)
	}
}
