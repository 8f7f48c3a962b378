package extract

import (
	"context"
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
// encryption (issue 6). A format also registers the objects embedded in
// other files that it reads (Embedded), so what a .doc's embedded
// workbook gives is decided by the same table.
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
	// Whole: the reader takes a small file's bytes instead of opening it
	// (a text file is read whole; a ZIP package is read from memory, not
	// with a system call per entry), so the router reads a file of at most
	// WholeMax whole while it sniffs it and hands it over as Options.Data.
	Whole bool
	// Embedded reads this format's objects embedded in other Office files
	// (reference/extraction.md §9), each known by what it holds.
	Embedded []Embedded
}

// Embedded is one kind of embedded object a format reads: Holds names
// the stream of a compound object ("WordDocument", "Workbook") or the
// part of an OOXML package ("ppt/presentation.xml") that tells the kind,
// and Read returns its text lines (body paragraphs and table rows, slide
// text, text cells of visible sheets; one line each).
//
// Read gets the container as the extraction machinery opened it:
// package embed passes a compound object as a streams.Storage and a
// package as an *ooxml.Pkg (it documents which). The root cannot name
// those types, since the machinery is built on the root; a reader
// asserts the one it registered for.
type Embedded struct {
	Holds string
	Read  func(ctx context.Context, container any) ([]string, error)
}

// formats is the table, in registration order; readers, nativeReaders
// and notZip index it.
var (
	formats       []Format
	readers       = map[string]Reader{}
	nativeReaders = map[string]Reader{}
	ownSignatures = map[string]bool{}
	wholeReaders  = map[string]bool{}
	embedded      = map[string]func(context.Context, any) ([]string, error){}
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
		if f.Whole && !f.Native {
			wholeReaders[e] = true
		}
	}
	for _, e := range f.Embedded {
		if e.Read == nil || e.Holds == "" {
			panic("extract: format " + f.Name + " registers an embedded object with no name or reader")
		}
		if _, dup := embedded[e.Holds]; dup {
			panic(fmt.Sprintf("extract: format %s registers embedded %q, which has a reader already", f.Name, e.Holds))
		}
		embedded[e.Holds] = e.Read
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

// EmbeddedReader returns the reader of embedded objects that hold the
// stream or part named holds, or nil.
func EmbeddedReader(holds string) func(ctx context.Context, container any) ([]string, error) {
	return embedded[holds]
}

// NativeReaders returns a copy of the native readers by extension.
func NativeReaders() map[string]Reader { return maps.Clone(nativeReaders) }
