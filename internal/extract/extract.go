package extract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/osfile"
)

// Options bound and equip one extraction.
type Options struct {
	// Scratch is a private folder for copies and conversions; the reader
	// may fill it and the caller empties it after each file. It need not
	// exist: a reader that writes into it makes it first (the worker makes
	// none for the many files that use none, issue 35).
	Scratch string
	// Limits against hostile files; zero fields take DefaultLimits.
	Limits Limits
	// MemLimit is the memory cap of the process that reads the file, in
	// bytes (the worker's cap; 0 = none): a reader that runs an engine
	// of its own bounds the engine's memory from it (the PDF engine).
	MemLimit int64
	// OCR reads the text of images (ocr.go); nil: images are not read
	// and image-only pages are only counted as before.
	OCR *OCR
	// HiddenSheets makes the workbook readers read hidden and very hidden
	// sheets too, as places named HiddenSheetName (the root's setting
	// hiddenSheets, issue 31). By default they are skipped, as tebunko
	// skips them (reference/extraction.md §5: only visible worksheets).
	HiddenSheets bool
	// Preparing tells that the reader waits for a one-time preparation of
	// its engine (the PDF engine's compiled code, made once per machine
	// and version; issue 33): msg is what the progress line shows while
	// it lasts, "" when it is over. nil: nobody is told.
	Preparing func(msg string)
	// Data is the file's bytes when the router read it whole (a file of
	// at most WholeMax bytes of a format registered Whole: text, OOXML and
	// OpenDocument packages; nil otherwise): the reader takes them instead
	// of reading the file again. They are the reader's: nobody reads or
	// changes them after it is called, so what it returns may keep them
	// (the text reader's lines are substrings of them).
	Data []byte
	// ReadBuffer is memory the router reads a file's first bytes, or a
	// small file whole, into when it is large enough, instead of a new
	// buffer per file (zeroed, then collected: 4 % of a worker's CPU on
	// small text files, issue 35); Data is then part of it. The caller
	// changes it only once it is done with the result. nil: a new buffer
	// per file.
	ReadBuffer []byte
}

// Limits against hostile files (reference/extraction.md §13).
type Limits struct {
	ZipPartBytes  int64 // uncompressed bytes of one ZIP part
	ZipTotalBytes int64 // uncompressed bytes of all parts read
	ZipEntries    int   // entries in one ZIP
	XMLDepth      int   // element nesting
	TextBytes     int64 // text file size
	TextBudget    int64 // UTF-8 bytes of all the lines one file gives (lines.go)
}

// DefaultLimits are the reference's limits.
var DefaultLimits = Limits{
	ZipPartBytes:  100 << 20,
	ZipTotalBytes: 300 << 20,
	ZipEntries:    100000,
	XMLDepth:      1000,
	TextBytes:     10 * 1000 * 1000,
	TextBudget:    DefaultTextBudget,
}

func (o Options) ResolvedLimits() Limits {
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
	if l.TextBudget == 0 {
		l.TextBudget = d.TextBudget
	}
	return l
}

// Reader extracts one format. path is a file the reader may open read-only;
// it must not write anywhere but opt.Scratch.
type Reader func(ctx context.Context, path string, opt Options) (*Result, error)

// ooxmlExtensions are the package formats whose content is sniffed first:
// a file under such a name that is no ZIP (an encrypted package, which is
// a compound file, or a legacy document renamed) goes to the legacy path,
// which classifies it before anything is parsed (reference/extraction.md
// §10): password → MsgPassword, IRM → MsgRights, a legacy document →
// converted or read natively, anything else → a clear failure.
var ooxmlExtensions = map[string]bool{".xlsx": true, ".xlsm": true, ".docx": true, ".docm": true, ".pptx": true, ".pptm": true}

// Extract reads the file at path, choosing the reader by the extension of
// name (the source's file name; path may be a scratch copy) and by what the
// file really holds (routeFor). A source that is no regular file fails
// with MsgNotRegular without blocking; an empty file of any extension is
// read as holding nothing (済 with no places, as the reference does for
// empty text files and as Word and PowerPoint open the empty .docx and
// .pptx that Explorer's "New" menu creates). Whatever the reader, the
// result passes the per-file text budget and has its long lines split
// (capResult, lines.go).
func Extract(ctx context.Context, path, name string, opt Options) (*Result, error) {
	res, err := extractRouted(ctx, path, name, opt)
	if err != nil || res == nil {
		return res, err
	}
	if err := capResult(res, opt.ResolvedLimits().TextBudget); err != nil {
		return nil, err
	}
	return res, nil
}

// extractRouted runs the reader Extract chooses.
func extractRouted(ctx context.Context, path, name string, opt Options) (*Result, error) {
	ext := strings.ToLower(filepath.Ext(name))
	r, ok := readers[ext]
	if !ok {
		return nil, ErrUnsupported
	}
	src, err := inspect(path, wholeReaders[ext], opt.ReadBuffer)
	if err != nil {
		return nil, err
	}
	if src.size == 0 {
		return &Result{}, nil
	}
	opt.Data = src.whole
	switch rt, err := routeFor(ext, src); rt {
	case routeFailed:
		return nil, err
	case routePDF:
		return readers[".pdf"](ctx, path, opt)
	case routeNotZip:
		return notZip(ctx, path, opt)
	}
	return r(ctx, path, opt)
}

// OpenSized opens path read-only and returns it with its size; errors
// name the path.
func OpenSized(path string) (*os.File, int64, error) {
	f, err := osfile.OpenRead(path)
	if err != nil {
		return nil, 0, fmt.Errorf("extract: open %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("extract: stat %s: %w", path, err)
	}
	return f, st.Size(), nil
}
