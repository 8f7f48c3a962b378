package cfb

import (
	"encoding/binary"
	"unicode"
	"unicode/utf16"
)

// Entry is one 128-byte directory entry, its fields as the file holds them.
type Entry struct {
	raw                [32]uint16 // the name field
	NameLen            uint16     // bytes of the name, NUL included
	Type               byte
	Left, Right, Child uint32
	Start              uint32
	SizeLow, SizeHigh  uint32
}

func parseEntry(b []byte) Entry {
	le := binary.LittleEndian
	e := Entry{
		NameLen:  le.Uint16(b[64:]),
		Type:     b[66],
		Left:     le.Uint32(b[68:]),
		Right:    le.Uint32(b[72:]),
		Child:    le.Uint32(b[76:]),
		Start:    le.Uint32(b[116:]),
		SizeLow:  le.Uint32(b[120:]),
		SizeHigh: le.Uint32(b[124:]),
	}
	for i := range e.raw {
		e.raw[i] = le.Uint16(b[2*i:])
	}
	return e
}

// RawName is the name with its control prefix (\x05, \x06, \x09), as
// [MS-CFB] compares names; "" when the length field is odd or out of
// range.
func (e *Entry) RawName() string {
	n := int(e.NameLen)
	if n < 2 || n > 64 || n%2 != 0 {
		return ""
	}
	return string(utf16.Decode(e.raw[:n/2-1]))
}

// Name is the name without a non-printing first character
// ("\x05SummaryInformation" is "SummaryInformation"); "" for a length
// field under 4 or over 64. Stream paths are made of these names.
func (e *Entry) Name() string {
	if e.NameLen < 4 || e.NameLen > 64 {
		return ""
	}
	n := int(e.NameLen/2 - 1)
	skip := 0
	if !unicode.IsPrint(rune(e.raw[0])) {
		skip = 1
	}
	return string(utf16.Decode(e.raw[skip:n]))
}

// IsStream reports whether the entry is a stream (not a storage, the root
// or an unused entry).
func (e *Entry) IsStream() bool { return e.Type == TypeStream }

// StreamSize is the size of a stream: 64 bits in version 4, the low 32 in
// version 3 (whose high half may hold junk); 0 for anything but a stream
// or a negative size.
func (f *File) StreamSize(e *Entry) int64 {
	if e.Type != TypeStream {
		return 0
	}
	n := int64(e.SizeLow)
	if f.H.Major > 3 {
		n = int64(uint64(e.SizeHigh)<<32 | uint64(e.SizeLow))
	}
	return max(n, 0)
}

// walk visits the directory tree from entry 0 in order (left sibling, the
// entry, its children, right sibling), recording each entry it reaches
// with its path. A link to no entry, or more visits than there are
// entries (a loop or a shared subtree), is a Problem; the walk goes on
// with the other links but never makes more calls than there are entries.
func (f *File) walk() {
	calls := 0
	var visit func(id uint32, parent int, path []string)
	visit = func(id uint32, parent int, path []string) {
		calls++
		if calls > len(f.Entries) {
			f.fail("directory tree walk exceeds its %d entries", len(f.Entries))
			return
		}
		if int64(id) >= int64(len(f.Entries)) {
			f.fail("directory link to entry %d of %d", id, len(f.Entries))
			return
		}
		e := &f.Entries[id]
		if e.Left != NoStream {
			visit(e.Left, parent, path)
		}
		f.Nodes = append(f.Nodes, Node{ID: id, Parent: parent, Path: path})
		if e.Child != NoStream {
			sub := path
			if id > 0 {
				sub = append(append(make([]string, 0, len(path)+1), path...), e.Name())
			}
			visit(e.Child, int(id), sub)
		}
		if e.Right != NoStream {
			visit(e.Right, parent, path)
		}
	}
	visit(0, -1, []string{})
}
