package extract

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/richardlehane/mscfb"
)

// Excel packages (.xlsx .xlsm), reference/extraction.md §5 and §6. Places,
// per visible sheet in workbook order:
//
//	<sheet>                    display values (worksheets): line N = row N,
//	                           field k = column k (§5.3)
//	<sheet>[図形]              shapes, text boxes, WordArt, SmartArt, chart
//	                           titles / axis titles / series names (§5.4)
//	<sheet>[コメント]          legacy and threaded comments (§5.5)
//	<sheet>[ヘッダー・フッター] print header and footer (§5.6)
//
// Hidden and very hidden sheets are skipped; chart sheets yield only
// [図形] and [ヘッダー・フッター]; dialog and macro sheets nothing.
//
// Display values are what a Japanese Excel shows (xlsx_numfmt*.go),
// computed from the cached values of the package: a formula without a
// cached value is empty, since nothing is recalculated. When a drawing or
// comments part is broken the reference also loses the header/footer;
// fumibako keeps it. Differences from Excel's own text export: no
// column-width effects (fill characters *x add nothing, _x adds one
// space), fractions are not space-padded, [DBNum] kanji numerals are
// approximate, mmm/ddd are English unless the format carries locale 411,
// and a date format on a value Excel would show as ##### (negative, after
// 9999-12-31) gives the General number.
//
// The cells are not read through excelize (DESIGN.md names it for display
// values): its Rows iterator returns formatted strings only, so the
// General rule cannot be fixed afterwards (it shows style-0 numbers raw,
// 123456789012 rather than 1.23457E+11, and formats General with ten
// significant digits), it shows built-in formats 20 and 22 as hh:mm,
// writes Gregorian years for Japanese era codes before 1912 and English
// weekday names for aaa, and it costs about 10 µs per formatted cell
// (date formats walk a locale table per token). The own parser
// (xlsx_scan.go) and formatter read a cell in about 1–2 µs with a few
// allocations; excelize builds the test fixtures.
//
// Cell data (worksheets, shared strings) is streamed under the caps of
// xlStreamPartFactor; the other parts go through the package limits of
// §13. Failures: not a ZIP → Corrupt with ErrNotZip in the chain, or
// MsgPassword for an encrypted (CFB) package; broken ZIP or XML of the
// workbook, shared strings or a worksheet → Corrupt; a size limit →
// MsgTooLarge. Broken drawings or comments drop the [図形] and [コメント]
// places with the log line "    図形・コメントを読み取れませんでした:
// <message>"; a broken chart or SmartArt part empties that object, and a
// broken chart sheet part its header/footer, each logged as
// "    一部を読み取れませんでした: <part>"; a broken styles part is logged
// the same way and every cell shows as General.

func init() { register(readXlsx, ".xlsx", ".xlsm") }

// Place name suffixes (§2.1).
const (
	xlPlaceShapes       = "[図形]"
	xlPlaceComments     = "[コメント]"
	xlPlaceHeaderFooter = "[ヘッダー・フッター]"
)

// xlObjectsFailedLog starts the log line of a failed drawing or comment
// reading (§5.4).
const xlObjectsFailedLog = "    図形・コメントを読み取れませんでした: "

func readXlsx(ctx context.Context, path string, opt Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res = nil
			err = Corrupt(fmt.Errorf("panic while reading workbook: %v", r))
		}
	}()
	lim := opt.limits()
	p, err := openPackage(path, lim)
	if err != nil {
		if errors.Is(err, ErrNotZip) {
			return nil, xlNotZip(path)
		}
		return nil, ooxmlFailure(path, err)
	}
	defer p.Close()
	res, err = xlReadBook(ctx, p, opt.Scratch)
	if err != nil {
		return nil, ooxmlFailure(path, err)
	}
	return res, nil
}

// cfbSignature starts every compound file (MS-CFB).
var xlCFBSignature = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// xlNotZip classifies a workbook that is not a ZIP by its compound-file
// entries (reference/extraction.md §10): IRM (DRM entries, or
// \x06DataSpaces without a known password entry) is MsgRights, an
// encrypted package (EncryptionInfo, StrongEncryptionDataSpace) is
// MsgPassword, anything else corrupt with ErrNotZip in the chain. Extract
// normally sends such files to the legacy path before this reader runs.
func xlNotZip(path string) error {
	notZip := Corrupt(fmt.Errorf("%s: %w", path, ErrNotZip))
	f, err := os.Open(path)
	if err != nil {
		return notZip
	}
	defer f.Close()
	head := make([]byte, len(xlCFBSignature))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, xlCFBSignature) {
		return notZip
	}
	r, err := mscfb.New(f)
	if err != nil {
		return notZip
	}
	var drm, password, dataSpaces bool
	for i := 0; i < 10000; i++ {
		e, err := r.Next()
		if err != nil {
			break
		}
		switch e.Name {
		case "DRMEncryptedDataSpace", "DRMEncryptedTransform", "\tDRMContent":
			drm = true
		case "EncryptionInfo", "StrongEncryptionDataSpace":
			password = true
		case "\x06DataSpaces":
			dataSpaces = true
		}
	}
	switch {
	case drm, dataSpaces && !password:
		return &Error{Msg: MsgRights, Cause: fmt.Errorf("%s: rights-managed (IRM) package", path)}
	case password:
		return &Error{Msg: MsgPassword, Cause: fmt.Errorf("%s: encrypted OOXML package", path)}
	}
	return notZip
}

// xlSheet is one sheet entry of xl/workbook.xml.
type xlSheet struct {
	name, state, rid string
}

// xlBook is the state of one workbook being read.
type xlBook struct {
	ctx      context.Context
	p        *pkg
	streams  *xlStreams
	wb       string
	date1904 bool
	sheets   []xlSheet
	rels     map[string]rel
	sst      *xlStrings
	styles   *xlStyles
	log      []string
}

// xlSheetPlaces are the places of one sheet before assembly.
type xlSheetPlaces struct {
	name                 string
	cells                []string
	shapes, comments, hf []string
}

func xlReadBook(ctx context.Context, p *pkg, scratch string) (*Result, error) {
	b := &xlBook{ctx: ctx, p: p, wb: "xl/workbook.xml", styles: newXlStyles(), sst: &xlStrings{},
		streams: &xlStreams{max: xlStreamPartFactor * p.lim.ZipTotalBytes, partMax: xlStreamPartFactor * p.lim.ZipPartBytes}}
	wb, err := xlMainPart(p)
	if err != nil {
		return nil, err
	}
	if wb != "" {
		b.wb = wb
	}
	if !p.has(b.wb) {
		return nil, Corrupt(fmt.Errorf("no workbook part %s", b.wb))
	}
	if strings.HasSuffix(strings.ToLower(b.wb), ".bin") {
		return nil, Corrupt(fmt.Errorf("binary workbook part %s (xlsb)", b.wb))
	}
	if err := b.readWorkbook(); err != nil {
		return nil, err
	}
	rels, err := p.relsOf(b.wb)
	if err != nil {
		return nil, err
	}
	b.rels = rels
	sstPart, stylesPart := xlBookParts(rels)
	if stylesPart != "" && p.has(stylesPart) {
		st, err := xlReadStyles(p, stylesPart)
		switch {
		case err == nil:
			b.styles = st
		case xlIsSizeError(err):
			return nil, err
		default:
			b.log = append(b.log, ooxmlPartLog(stylesPart))
		}
	}
	if sstPart != "" && p.has(sstPart) {
		if b.sst, err = xlReadStrings(ctx, p, b.streams, sstPart, scratch); err != nil {
			return nil, err
		}
	}
	defer b.sst.close()

	var all []xlSheetPlaces
	objectsFailed := false
	used := map[string]bool{}
	for _, sh := range b.sheets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if sh.state == "hidden" || sh.state == "veryHidden" || sh.name == "" || used[strings.ToLower(sh.name)] {
			continue
		}
		r, ok := rels[sh.rid]
		if !ok || r.Target == "" || !p.has(r.Target) {
			continue
		}
		var sp xlSheetPlaces
		var chart bool
		switch {
		case relTypeIs(r.Type, "worksheet"):
		case relTypeIs(r.Type, "chartsheet"):
			chart = true
		default:
			continue
		}
		used[strings.ToLower(sh.name)] = true
		sp.name = sh.name
		if chart {
			sp.hf = b.chartSheetHeaderFooter(r.Target)
		} else {
			data, err := b.readSheet(r.Target)
			if err != nil {
				return nil, err
			}
			sp.cells = data.lines
			sp.hf = data.hf.lines()
		}
		if !objectsFailed {
			shapes, comments, err := b.sheetObjects(r.Target, chart)
			switch {
			case err == nil:
				sp.shapes, sp.comments = shapes, comments
			case xlIsSizeError(err), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
				return nil, err
			default:
				objectsFailed = true
				b.log = append(b.log, xlObjectsFailedLog+ooxmlSpaceControls(err.Error()))
			}
		}
		all = append(all, sp)
	}
	res := &Result{Log: b.log}
	for _, sp := range all {
		add := func(suffix string, lines []string) {
			if len(lines) > 0 {
				res.Places = append(res.Places, Place{Name: sp.name + suffix, Lines: lines})
			}
		}
		add("", sp.cells)
		if !objectsFailed {
			add(xlPlaceShapes, sp.shapes)
			add(xlPlaceComments, sp.comments)
		}
		add(xlPlaceHeaderFooter, sp.hf)
	}
	return res, nil
}

// xlMainPart returns the target of the package's first officeDocument
// relationship, in sorted order, whose part exists; "" when there is none.
func xlMainPart(p *pkg) (string, error) {
	root, err := p.relsOf("")
	if err != nil {
		return "", err
	}
	for _, r := range ooxmlSortedRels(root) {
		if relTypeIs(r.Type, "officeDocument") && r.Target != "" && p.has(r.Target) {
			return r.Target, nil
		}
	}
	return "", nil
}

// xlBookParts returns the targets of a workbook's first shared-strings and
// first styles relationships, in sorted order ("" for none).
func xlBookParts(rels map[string]rel) (sst, styles string) {
	for _, r := range ooxmlSortedRels(rels) {
		switch {
		case relTypeIs(r.Type, "sharedStrings") && sst == "":
			sst = r.Target
		case relTypeIs(r.Type, "styles") && styles == "":
			styles = r.Target
		}
	}
	return sst, styles
}

func xlIsSizeError(err error) bool {
	var se *sizeError
	return errors.As(err, &se)
}

// readWorkbook reads the sheet list and date system of xl/workbook.xml.
func (b *xlBook) readWorkbook() error {
	return b.p.eachStart(b.wb, func(d *xmlDecoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "workbookPr":
			b.date1904 = xlOn(attr(se, "date1904"))
		case "sheet":
			rid := relAttr(se, "id")
			if rid == "" {
				rid = attr(se, "id") // a writer that forgot the r: prefix
			}
			b.sheets = append(b.sheets, xlSheet{name: attr(se, "name"), state: attr(se, "state"), rid: rid})
		case "bookViews", "definedNames", "calcPr", "extLst", "fileRecoveryPr", "customWorkbookViews", "pivotCaches", "externalReferences":
			return d.Skip()
		}
		return nil
	})
}

// readSheet streams one worksheet part.
func (b *xlBook) readSheet(part string) (*xlSheetData, error) {
	rc, err := xlOpenStream(b.p, b.streams, part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := &xlSheetReader{ctx: b.ctx, sst: b.sst, styles: b.styles, date1904: b.date1904, part: part}
	return r.read(rc, b.p.lim.XMLDepth)
}

// chartSheetHeaderFooter reads the headerFooter of a chart sheet part; a
// part that cannot be read loses only its header/footer (logged).
func (b *xlBook) chartSheetHeaderFooter(part string) []string {
	rc, err := b.p.open(part)
	if err != nil {
		b.log = append(b.log, ooxmlPartLog(part))
		return nil
	}
	defer rc.Close()
	d, err := newXlScanner(rc, b.p.lim.XMLDepth)
	if err != nil {
		b.log = append(b.log, ooxmlPartLog(part))
		return nil
	}
	var hf xlHeaderFooter
	for {
		err := d.next()
		if err == io.EOF {
			return hf.lines()
		}
		if err != nil {
			b.log = append(b.log, ooxmlPartLog(part))
			return nil
		}
		if d.kind == xlScanStart && string(d.name) == "headerFooter" {
			if err := hf.read(d); err != nil {
				b.log = append(b.log, ooxmlPartLog(part))
				return nil
			}
			return hf.lines()
		}
	}
}
