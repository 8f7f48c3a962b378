package extract

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
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
//	Workbook             Excel 97–2003: text cells of visible sheets
//	                     (doc_embed_xls.go)
//	WordDocument         Word 97–2003: body paragraphs and table rows
//	PowerPoint Document  PowerPoint 97–2003: slide text
//
// A chart LibreOffice stored as an OpenDocument chart ("package_stream",
// doc_chart.go) gives a [図形] line instead and takes no number.
// Anything else (pictures, PDF, packager objects) is skipped and takes no
// number. Numbering runs per file in reference order; an object referenced
// twice is read once; one that cannot be read takes its number, leaves a
// gap and is logged ("    埋め込みを読み取れませんでした: <名前>").
// Objects inside objects are not read.

// nativeEmbeds numbers and reads the embedded objects of one file.
type nativeEmbeds struct {
	ctx  context.Context
	lim  Limits
	read *int64 // stream bytes read, shared with the outer file
	n    int
	seen map[string]bool
	log  []string
}

// embedChart is the format of an OpenDocument chart object.
const embedChart embedFormat = 0x80

// place reads one object — in storage prefix of c, or data when c is nil —
// and returns its place "<base>[埋め込みN]", or "<base>[図形]" with one line
// for a chart, or nil when it yields nothing.
// key identifies the object for "read once"; label names it in the log.
// The error is non-nil only when the whole file must stop (cancelled).
func (e *nativeEmbeds) place(c *compound, prefix string, data []byte, key, label, base string) (*Place, error) {
	if err := e.ctx.Err(); err != nil {
		return nil, err
	}
	if e.seen == nil {
		e.seen = map[string]bool{}
	}
	if e.seen[key] {
		return nil, nil
	}
	e.seen[key] = true
	var (
		lines  []string
		format embedFormat
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
		e.n++
		e.log = append(e.log, "    埋め込みを読み取れませんでした: "+label)
		return nil, nil
	}
	switch format {
	case embedNone:
		return nil, nil
	case embedChart:
		if len(lines) == 0 {
			return nil, nil
		}
		return &Place{Name: base + ooxmlShape, Lines: lines}, nil
	}
	e.n++
	var res Result
	ooxmlAddPlace(&res, base+ooxmlEmbed(e.n), lines)
	if len(res.Places) == 0 {
		return nil, nil
	}
	return &res.Places[0], nil
}

// fromBytes reads an object given as the bytes of a compound file or of a
// ZIP package.
func (e *nativeEmbeds) fromBytes(data []byte) ([]string, embedFormat, error) {
	switch {
	case bytes.HasPrefix(data, []byte("PK")):
		return embedPackageLines(data, e.lim)
	case bytes.HasPrefix(data, cfbMagic):
		if err := checkProtection(bytes.NewReader(data), int64(len(data))); err != nil {
			return nil, embedNone, err
		}
		c, err := newCompound(memFile{b: data, short: io.ErrUnexpectedEOF}, int64(len(data)), e.lim, e.read)
		if err != nil {
			return nil, embedNone, err
		}
		return e.fromCompound(c, "")
	}
	return nil, embedNone, nil
}

var cfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// fromCompound reads the object whose streams are under prefix of c.
func (e *nativeEmbeds) fromCompound(c *compound, prefix string) ([]string, embedFormat, error) {
	switch {
	case c.has(prefix + "package_stream"):
		data, err := c.stream(prefix + "package_stream")
		if err != nil {
			return nil, embedNone, err
		}
		line, err := odfChartText(data, e.lim)
		switch {
		case errors.Is(err, errNotODFChart):
			return nil, embedNone, nil
		case err != nil:
			return nil, embedChart, err
		case line == "":
			return nil, embedChart, nil
		}
		return []string{line}, embedChart, nil
	case c.has(prefix + "Package"):
		data, err := c.stream(prefix + "Package")
		if err != nil {
			return nil, embedNone, err
		}
		if !bytes.HasPrefix(data, []byte("PK")) {
			return nil, embedNone, nil
		}
		return embedPackageLines(data, e.lim)
	case c.has(prefix + "WordDocument"):
		out, err := compoundDocumentText(c, prefix)
		return out, embedDocument, err
	case c.has(prefix + "PowerPoint Document"):
		out, err := compoundPresentationText(c, prefix)
		return out, embedPresentation, err
	case c.has(prefix + "Workbook"):
		data, err := c.stream(prefix + "Workbook")
		if err != nil {
			return nil, embedWorkbook, err
		}
		lines, err := embedBiffText(data)
		return lines, embedWorkbook, err
	}
	return nil, embedNone, nil
}

// compoundDocumentText and compoundPresentationText read the body text of
// an embedded Word and PowerPoint compound file (the storage under prefix
// of c); the .doc and .ppt readers set them.
var compoundDocumentText, compoundPresentationText func(c *compound, prefix string) ([]string, error)

func registerCompoundText(document, presentation func(c *compound, prefix string) ([]string, error)) {
	if document != nil {
		compoundDocumentText = document
	}
	if presentation != nil {
		compoundPresentationText = presentation
	}
}

// embedPackageLines reads an embedded OOXML package as readEmbedded does,
// with a budget of its own (a compound file has no package budget).
func embedPackageLines(data []byte, lim Limits) ([]string, embedFormat, error) {
	return embeddedPackageLines(data, lim, &budget{max: lim.ZipTotalBytes})
}

// readAllLimited reads r to its end, failing beyond max bytes.
func readAllLimited(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, errors.New("embedded object larger than the limit")
	}
	return b, nil
}

// docShapeObjects maps the shape ids of floating OLE objects to their
// ObjectPool storage numbers: the OfficeArtContent at fcDggInfo
// ([MS-DOC] 2.9.172) holds the drawings, whose shapes carry the storage
// number in the pictureId property (0x010B, [MS-ODRAW] 2.3.23.?).
func docShapeObjects(fib *docFib, table []byte) map[uint32]uint32 {
	out := map[uint32]uint32{}
	b := fib.blob(table, fcDggInfo)
	dgg, err := pptRecordAt(b, 0)
	if err != nil {
		return out
	}
	// Then each drawing: a dgglbl byte and an OfficeArtDgContainer.
	for off, i := int64(8+len(dgg.data)), 0; off+9 <= int64(len(b)) && i < 64; i++ {
		dg, err := pptRecordAt(b, off+1)
		if err != nil {
			break
		}
		off += 9 + int64(len(dg.data))
		dg.find(rtOfficeArtSp, func(sp pptRec) {
			var spid, pic uint32
			var ok bool
			for _, c := range sp.children() {
				switch c.typ {
				case rtOfficeArtFSP:
					spid = c.u32(0)
				case rtOfficeArtFOPT, rtOfficeArtFOPT2, rtOfficeArtFOPT3:
					if v, found := pptProperty(c, propPictureID); found {
						pic, ok = v, true
					}
				}
			}
			if ok && len(out) < docMaxEmbeds {
				out[spid] = pic
			}
		})
	}
	return out
}

// storageKey is the lower-case path prefix of an ObjectPool storage.
func storageKey(name string) string { return "objectpool/" + strings.ToLower(name) + "/" }
