package officeart_test

import (
	"encoding/binary"
	"testing"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/extract/internal/officeart"
)

// rec writes one record: header (version/instance, type, length) and body.
func rec(inst, typ uint16, body ...[]byte) []byte {
	var data []byte
	for _, b := range body {
		data = append(data, b...)
	}
	h := make([]byte, 8)
	binary.LittleEndian.PutUint16(h, inst<<4|0xF) // a container's version 0xF
	binary.LittleEndian.PutUint16(h[2:], typ)
	binary.LittleEndian.PutUint32(h[4:], uint32(len(data)))
	return append(h, data...)
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// TestRecordsAndText walks a container as the .ppt and .doc readers do:
// its children in order, the first child of a type, every record of a
// type below it (not below a match), a record that runs past its
// container ending the list, and the text of a slide's text atoms with
// its field characters (a slide number's `*`) removed.
func TestRecordsAndText(t *testing.T) {
	chars := rec(0, officeart.RtTextCharsAtom, utf16le("第*回 会議"))
	bytesAtom := rec(0, officeart.RtTextBytesAtom, []byte("Agenda"))
	slideNo := rec(0, 0x0FD8, u32(1)) // SlideNumberMCAtom at position 1
	inner := rec(3, officeart.RtOfficeArtTextbox, chars, slideNo)
	stream := rec(0, officeart.RtSlide, inner, bytesAtom, rec(0, officeart.RtCString, utf16le("名前")))
	// A last child that claims more bytes than its container holds.
	stream = append(stream[:len(stream):len(stream)], 0, 0, 0xA0, 0x0F, 0xFF, 0, 0, 0)
	binary.LittleEndian.PutUint32(stream[4:], uint32(len(stream)-8))

	slide, err := officeart.RecordAt(stream, 0)
	if err != nil {
		t.Fatal(err)
	}
	kids := slide.Children()
	if len(kids) != 3 || kids[0].Typ != officeart.RtOfficeArtTextbox || kids[0].Inst != 3 || kids[2].Typ != officeart.RtCString {
		t.Fatalf("children %+v, want textbox (instance 3), bytes atom, CString and nothing for the broken record", kids)
	}
	if c, ok := slide.Child(officeart.RtTextBytesAtom); !ok || officeart.String(c) != "Agenda" {
		t.Errorf("Child(TextBytesAtom) = %q, %v", officeart.String(c), ok)
	}
	var found []string
	slide.Find(officeart.RtTextCharsAtom, func(r officeart.Rec) { found = append(found, officeart.String(r)) })
	if len(found) != 1 || found[0] != "第*回 会議" {
		t.Errorf("Find(TextCharsAtom) = %q", found)
	}
	var b officeart.TextBuilder
	for _, r := range kids[0].Children() {
		b.Add(r)
	}
	if got := b.String(); !b.Any || got != "第回 会議" {
		t.Errorf("text %q (any %v), want the slide number's field character removed", got, b.Any)
	}
	if _, err := officeart.RecordAt(stream, int64(len(stream)-4)); err == nil {
		t.Error("a record header past the end was read")
	}
	if slide.U32(1<<20) != 0 || slide.U16(-1) != 0 {
		t.Error("a field outside the body was not 0")
	}
}
