package extract

import (
	"context"
	"path/filepath"
	"strings"
)

// Options bound and equip one extraction.
type Options struct {
	// Scratch is a private folder for copies and conversions; the reader
	// may fill it and the caller empties it after each file.
	Scratch string
	// Limits against hostile files; zero fields take DefaultLimits.
	Limits Limits
}

// Limits against hostile files (reference/extraction.md §13).
type Limits struct {
	ZipPartBytes  int64 // uncompressed bytes of one ZIP part
	ZipTotalBytes int64 // uncompressed bytes of all parts read
	ZipEntries    int   // entries in one ZIP
	XMLDepth      int   // element nesting
	TextBytes     int64 // text file size
}

// DefaultLimits are the reference's limits.
var DefaultLimits = Limits{
	ZipPartBytes:  100 << 20,
	ZipTotalBytes: 300 << 20,
	ZipEntries:    100000,
	XMLDepth:      1000,
	TextBytes:     10 * 1000 * 1000,
}

func (o Options) limits() Limits {
	l := o.Limits
	d := DefaultLimits
	if l.ZipPartBytes == 0 {
		l.ZipPartBytes = d.ZipPartBytes
	}
	if l.ZipTotalBytes == 0 {
		l.ZipTotalBytes = d.ZipTotalBytes
	}
	if l.ZipEntries == 0 {
		l.ZipEntries = d.ZipEntries
	}
	if l.XMLDepth == 0 {
		l.XMLDepth = d.XMLDepth
	}
	if l.TextBytes == 0 {
		l.TextBytes = d.TextBytes
	}
	return l
}

// Reader extracts one format. path is a file the reader may open read-only;
// it must not write anywhere but opt.Scratch.
type Reader func(ctx context.Context, path string, opt Options) (*Result, error)

// readers maps a lower-case extension to its reader; each format's file
// registers itself in an init function.
var readers = map[string]Reader{}

func register(r Reader, exts ...string) {
	for _, e := range exts {
		readers[e] = r
	}
}

// Extract reads the file at path, choosing the reader by the extension of
// name (the source's file name; path may be a scratch copy).
func Extract(ctx context.Context, path, name string, opt Options) (*Result, error) {
	r, ok := readers[strings.ToLower(filepath.Ext(name))]
	if !ok {
		return nil, ErrUnsupported
	}
	return r(ctx, path, opt)
}
