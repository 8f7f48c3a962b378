package extract

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Format is what one reader package registers, once, in an init function
// (as image/png registers its decoder with image.RegisterFormat): the
// extensions it reads and how. extract/all links every reader package, so
// a binary that imports it has the whole table; Extract consults nothing
// else.
//
// An extension has exactly one reader: the Format that registers it
// without Native. A Native format is the reader written on a legacy
// format's published specification (.xls .xlsb .doc .ppt); the reader of
// those extensions is the Fallback (LibreOffice), which tries the native
// reader first and converts only when it fails with anything but
// encryption (issue 6). Embedded objects have registrations of their own
// in extract/internal/embed, whose types the root cannot name.
type Format struct {
	// Name names the reader in the table's listing (Formats).
	Name string
	// Extensions are lower-case, with the dot.
	Extensions []string
	// Read reads one file.
	Read Reader
	// Native: Read is the native reader the Fallback tries first, not
	// the extensions' reader (NativeReaders).
	Native bool
	// Fallback: Read converts what the native readers cannot read; it
	// also reads a file under an OOXML name that is no ZIP (an encrypted
	// package or a renamed legacy file), which it classifies first.
	Fallback bool
	// OwnSignatures: the reader tells its files from their bytes, so the
	// router does not refuse a signature officefile.Foreign names (an
	// image reader reads what Foreign calls an image).
	OwnSignatures bool
}

// formats is the table, in registration order; readers, nativeReaders
// and notZip index it.
var (
	formats       []Format
	readers       = map[string]Reader{}
	nativeReaders = map[string]Reader{}
	ownSignatures = map[string]bool{}
	// notZip reads a file under an OOXML name that is no ZIP: the
	// Fallback's reader.
	notZip Reader
)

// RegisterFormat adds a reader package's format to the table. It panics
// when an extension would get a second reader (or a second native
// reader), or a second Fallback is registered: the table is fixed when
// the program starts, so that is a programming error.
func RegisterFormat(f Format) {
	if f.Read == nil || f.Name == "" {
		panic("extract: RegisterFormat with no name or reader")
	}
	to := readers
	if f.Native {
		to = nativeReaders
	}
	for _, e := range f.Extensions {
		if e != strings.ToLower(e) || !strings.HasPrefix(e, ".") {
			panic(fmt.Sprintf("extract: format %s registers extension %q (want lower case with the dot)", f.Name, e))
		}
		if _, dup := to[e]; dup {
			panic(fmt.Sprintf("extract: format %s registers %s, which has a reader already", f.Name, e))
		}
		to[e] = f.Read
		if f.OwnSignatures {
			ownSignatures[e] = true
		}
	}
	if f.Fallback {
		if notZip != nil {
			panic("extract: a second fallback format " + f.Name)
		}
		notZip = f.Read
	}
	formats = append(formats, f)
}

// Formats returns the table sorted by name.
func Formats() []Format {
	out := slices.Clone(formats)
	slices.SortFunc(out, func(a, b Format) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ReaderFor returns the reader of a lower-case extension, or nil.
func ReaderFor(ext string) Reader { return readers[ext] }

// NativeReaders returns a copy of the native readers by extension.
func NativeReaders() map[string]Reader { return maps.Clone(nativeReaders) }
