package embed

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
)

// Embedded Office objects of .doc and .ppt files (reference/extraction.md
// §9, as readEmbeddedObjectLines reads them from a package; LibreOffice
// keeps them when it converts). An object is a compound file — a storage
// of the .doc's ObjectPool, or the decompressed ExOleObjStg of a .ppt —
// or an OOXML package (its "Package" stream). What it holds decides the
// format:
//
//	Package (ZIP)        as an embedded package: workbook, document or
//	                     presentation by the part it contains
//	WordDocument         Word 97–2003: body paragraphs and table rows
//	PowerPoint Document  PowerPoint 97–2003: slide text
//	Workbook or Book     Excel 97–2003 (BIFF8) or 5.0/95 (BIFF5): text
//	                     cells of visible sheets
//
// The last three are read by the format that registers the stream's name
// (extract.Embedded: the .doc, .ppt and .xls readers), given the object
// as a streams.Storage; CompoundHolds lists them in the order they are
// tried.
// A chart LibreOffice stored as an OpenDocument chart ("package_stream",
// odfchart.go) gives a [図形] line instead and takes no number.
// Anything else (pictures, PDF, packager objects) is skipped and takes no
// number. Numbering runs per file in reference order; an object referenced
// twice is read once; one that cannot be read takes its number, leaves a
// gap and is logged ("    埋め込みを読み取れませんでした: <名前>").
// Objects inside objects are not read.

// NativeEmbeds numbers and reads the embedded objects of one file.
type NativeEmbeds struct {
	Ctx  context.Context
	Lim  extract.Limits
	Read *int64 // stream bytes read, shared with the outer file
	N    int
	Seen map[string]bool
	Log  []string
}

// chart is the format of an OpenDocument chart object.
const chart format = 0x80

// Place reads one object — in storage prefix of c, or data when c is nil —
// and returns its place "<base>[埋め込みN]", or "<base>[図形]" with one line
// for a chart, or nil when it yields nothing.
// key identifies the object for "read once"; label names it in the log.
// The error is non-nil only when the whole file must stop (cancelled).
func (e *NativeEmbeds) Place(c *streams.File, prefix string, data []byte, key, label, base string) (*extract.Place, error) {
	if err := e.Ctx.Err(); err != nil {
		return nil, err
	}
	if e.Seen == nil {
		e.Seen = map[string]bool{}
	}
	if e.Seen[key] {
		return nil, nil
	}
	e.Seen[key] = true
	var (
		lines  []string
		format format
		err    error
	)
	if c != nil {
		lines, format, err = e.fromCompound(c, prefix)
	} else {
		lines, format, err = e.fromBytes(data)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	if err != nil {
		e.N++
		e.Log = append(e.Log, "    埋め込みを読み取れませんでした: "+label)
		return nil, nil
	}
	switch format {
	case none:
		return nil, nil
	case chart:
		if len(lines) == 0 {
			return nil, nil
		}
		return &extract.Place{Name: base + extract.PlaceShape, Lines: lines}, nil
	}
	e.N++
	var res extract.Result
	extract.AddPlace(&res, base+extract.PlaceEmbed(e.N), lines)
	if len(res.Places) == 0 {
		return nil, nil
	}
	return &res.Places[0], nil
}

// fromBytes reads an object given as the bytes of a compound file or of a
// ZIP package.
func (e *NativeEmbeds) fromBytes(data []byte) ([]string, format, error) {
	switch {
	case bytes.HasPrefix(data, []byte("PK")):
		return packageLines(data, e.Lim)
	case bytes.HasPrefix(data, CfbMagic):
		c, err := streams.OpenEmbedded(data, e.Lim, e.Read)
		if err != nil {
			return nil, none, err
		}
		return e.fromCompound(c, "")
	}
	return nil, none, nil
}

var CfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// fromCompound reads the object whose streams are under prefix of c.
func (e *NativeEmbeds) fromCompound(c *streams.File, prefix string) ([]string, format, error) {
	switch {
	case c.Has(prefix + "package_stream"):
		data, err := c.Stream(prefix + "package_stream")
		if err != nil {
			return nil, none, err
		}
		line, err := odfChartText(data, e.Lim)
		switch {
		case errors.Is(err, errNotODFChart):
			return nil, none, nil
		case err != nil:
			return nil, chart, err
		case line == "":
			return nil, chart, nil
		}
		return []string{line}, chart, nil
	case c.Has(prefix + "Package"):
		data, err := c.Stream(prefix + "Package")
		if err != nil {
			return nil, none, err
		}
		if !bytes.HasPrefix(data, []byte("PK")) {
			return nil, none, nil
		}
		return packageLines(data, e.Lim)
	}
	for _, h := range CompoundHolds {
		if !c.Has(prefix + h.Stream) {
			continue
		}
		read := extract.EmbeddedReader(h.Stream)
		if read == nil {
			return nil, none, nil
		}
		lines, err := read(e.Ctx, streams.Storage{File: c, Prefix: prefix})
		return lines, h.format, err
	}
	return nil, none, nil
}

// CompoundHolds are the streams that tell an embedded compound object's
// kind, in the order they are tried; each is read by the format that
// registers it (extract/all's test checks that each has one reader).
var CompoundHolds = []struct {
	Stream string
	format format
}{
	{"WordDocument", document},
	{"PowerPoint Document", presentation},
	{"Workbook", workbook},
	{"Book", workbook},
}

// packageLines reads an embedded OOXML package as readEmbedded does,
// with a budget of its own (a compound file has no package budget).
func packageLines(data []byte, lim extract.Limits) ([]string, format, error) {
	return embeddedPackageLines(data, lim, &ooxml.Budget{Max: lim.ZipTotalBytes})
}

// ReadAllLimited reads r to its end, failing beyond max bytes.
func ReadAllLimited(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, errors.New("embedded object larger than the limit")
	}
	return b, nil
}

// StorageKey is the lower-case path prefix of an ObjectPool storage.
func StorageKey(name string) string { return "objectpool/" + strings.ToLower(name) + "/" }
