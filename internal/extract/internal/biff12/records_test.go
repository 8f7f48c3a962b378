package biff12_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/fumibako/fumibako/internal/extract/internal/biff12"
)

// TestRecordReader reads records framed as [MS-XLSB] 2.1.4 says: a type of
// 1 or 2 bytes and a size of 1 to 4, 7 bits each with a high bit that
// says another byte follows. Records the caller does not want are skipped
// unread; a cut record or an over-long header is an error, not data.
func TestRecordReader(t *testing.T) {
	big := bytes.Repeat([]byte{'z'}, 200) // a size of two bytes: 0xC8 0x01
	stream := join(
		[]byte{0x00, 0x01, 'a'},            // type 0, size 1
		[]byte{0x80, 0x01, 0x02, 'b', 'c'}, // type 128 in two bytes
		[]byte{0x05, 0xC8, 0x01}, big,      // type 5, size 200
		[]byte{0x07, 0x00}, // type 7, empty
	)
	all := func(int) bool { return true }
	rr := biff12.NewReader(bytes.NewReader(stream))
	for _, want := range []struct {
		typ  int
		data string
	}{{0, "a"}, {128, "bc"}, {5, string(big)}, {7, ""}} {
		typ, data, err := rr.Next(all)
		if err != nil || typ != want.typ || string(data) != want.data {
			t.Fatalf("record %d: %d %q, %v", want.typ, typ, data, err)
		}
	}
	if _, _, err := rr.Next(all); err != io.EOF {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}

	rr = biff12.NewReader(bytes.NewReader(stream))
	typ, data, err := rr.Next(func(t int) bool { return t == 7 })
	if err != nil || typ != 7 || len(data) != 0 {
		t.Fatalf("skipping to type 7: %d %q, %v", typ, data, err)
	}

	for _, bad := range []struct {
		name string
		in   []byte
	}{
		{"a cut record", []byte{0x01, 0x05, 'a', 'b'}},
		{"a cut size", []byte{0x01, 0x80}},
		{"a type of three bytes", []byte{0x80, 0x80, 0x01, 0x00}},
		{"a size of five bytes", []byte{0x01, 0x80, 0x80, 0x80, 0x80, 0x01}},
	} {
		if _, _, err := biff12.NewReader(bytes.NewReader(bad.in)).Next(all); err == nil || err == io.EOF {
			t.Errorf("%s: %v, want an error", bad.name, err)
		}
	}
}

// TestWide reads XLWideStrings: a character count and UTF-16LE, the NULL
// string of XLNullableWideString, and counts past the data refused.
func TestWide(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
		next int
		ok   bool
	}{
		{"見積", []byte{2, 0, 0, 0, 0x8B, 0x89, 0x4D, 0x7A}, "見積", 8, true},
		{"empty", []byte{0, 0, 0, 0}, "", 4, true},
		{"NULL", []byte{0xFF, 0xFF, 0xFF, 0xFF}, "", 4, true},
		{"count past the data", []byte{3, 0, 0, 0, 'a', 0}, "", 6, false},
		{"a huge count", []byte{0xFE, 0xFF, 0xFF, 0x7F}, "", 4, false},
		{"no count", []byte{1, 0}, "", 0, false},
	}
	for _, tt := range tests {
		s, next, ok := biff12.Wide(tt.in, 0)
		if s != tt.want || next != tt.next || ok != tt.ok {
			t.Errorf("%s: %q %d %v; want %q %d %v", tt.name, s, next, ok, tt.want, tt.next, tt.ok)
		}
	}
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
