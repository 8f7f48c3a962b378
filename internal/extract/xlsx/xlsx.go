package xlsx

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
	"github.com/fumibako/fumibako/internal/officefile"
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
// Hidden and very hidden sheets are skipped, unless Options.HiddenSheets
// asks for them: then their places are <sheet>[非表示], <sheet>[非表示][図形]
// … (extract.HiddenSheetName); chart sheets yield only
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
// (internal/sheet/scan.go) and formatter read a cell in about 1–2 µs with a few
// allocations; excelize builds the test fixtures.
//
// Cell data (worksheets, shared strings) is streamed under the package
// limits like every other part (DESIGN.md: ZIP part 100 MB, total 300 MB
// uncompressed, one budget per file). Failures: not a ZIP → Corrupt with ooxml.ErrNotZip in the chain, or
// MsgPassword for an encrypted (CFB) package; broken ZIP or XML of the
// workbook, shared strings or a worksheet → Corrupt; a size limit →
// MsgTooLarge. Broken drawings or comments drop the [図形] and [コメント]
// places with the log line "    図形・コメントを読み取れませんでした:
// <message>"; a broken chart or SmartArt part empties that object, and a
// broken chart sheet part its header/footer, each logged as
// "    一部を読み取れませんでした: <part>"; a broken styles part is logged
// the same way and every cell shows as General.

func init() {
	extract.RegisterFormat(extract.Format{Name: "xlsx", Extensions: []string{".xlsx", ".xlsm"}, Read: readXlsx, Whole: true})
}

// Place name suffixes (§2.1).
const (
	placeShapes       = extract.PlaceShape
	placeComments     = extract.PlaceComment
	placeHeaderFooter = "[" + extract.ObjectHeaderFooter + "]"
)

// objectsFailedLog starts the log line of a failed drawing or comment
// reading (§5.4).
const objectsFailedLog = "    図形・コメントを読み取れませんでした: "

func readXlsx(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res = nil
			err = extract.Corrupt(fmt.Errorf("panic while reading workbook: %v", r))
		}
	}()
	p, err := ooxml.OpenSource(path, opt)
	if err != nil {
		if errors.Is(err, ooxml.ErrNotZip) {
			return nil, notZip(path)
		}
		return nil, ooxml.Failure(path, err)
	}
	defer p.Close()
	res, err = readBook(ctx, p, opt.Scratch, opt.HiddenSheets)
	if err != nil {
		return nil, ooxml.Failure(path, err)
	}
	return res, nil
}

// notZip classifies a workbook that is not a ZIP as package officefile
// does (reference/extraction.md §10): IRM is MsgRights, a password
// (an encrypted package) MsgPassword, anything else corrupt with
// ooxml.ErrNotZip in the chain. Extract normally sends such files to the
// legacy path before this reader runs.
func notZip(path string) error {
	notZip := extract.Corrupt(fmt.Errorf("%s: %w", path, ooxml.ErrNotZip))
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return notZip
	}
	defer f.Close()
	d, err := officefile.Detect(f, size)
	if err != nil || d.Format != officefile.FormatCFB {
		return notZip
	}
	switch d.Protection {
	case officefile.Rights:
		return &extract.Error{Msg: extract.MsgRights, Cause: fmt.Errorf("%s: rights-managed (IRM) package: %s", path, d.Reason)}
	case officefile.Password:
		return &extract.Error{Msg: extract.MsgPassword, Cause: fmt.Errorf("%s: encrypted package: %s", path, d.Reason)}
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
	p        *ooxml.Pkg
	wb       string
	date1904 bool
	sheets   []xlSheet
	rels     map[string]ooxml.Rel
	sst      *xlStrings
	styles   *sheet.Styles
	log      []string
	hidden   bool // read hidden sheets too (extract.Options.HiddenSheets)
}

// sheetPlaces are the places of one sheet before assembly.
type sheetPlaces struct {
	name                 string
	cells                []string
	shapes, comments, hf []string
}

func readBook(ctx context.Context, p *ooxml.Pkg, scratch string, hidden bool) (*extract.Result, error) {
	b, err := openBook(ctx, p, scratch)
	if err != nil {
		return nil, err
	}
	b.hidden = hidden
	defer b.sst.close()
	all, objectsFailed, err := b.readSheets()
	if err != nil {
		return nil, err
	}
	res := &extract.Result{Log: b.log}
	for _, sp := range all {
		add := func(suffix string, lines []string) {
			if len(lines) > 0 {
				res.Places = append(res.Places, extract.Place{Name: sp.name + suffix, Lines: lines})
			}
		}
		add("", sp.cells)
		if !objectsFailed {
			add(placeShapes, sp.shapes)
			add(placeComments, sp.comments)
		}
		add(placeHeaderFooter, sp.hf)
	}
	return res, nil
}

// openBook reads the workbook part, its relationships, the styles and the
// shared strings; the caller closes b.sst.
func openBook(ctx context.Context, p *ooxml.Pkg, scratch string) (*xlBook, error) {
	b := &xlBook{ctx: ctx, p: p, wb: "xl/workbook.xml", styles: sheet.NewStyles(), sst: &xlStrings{}}
	wb, err := mainPart(p)
	if err != nil {
		return nil, err
	}
	if wb != "" {
		b.wb = wb
	}
	if !p.Has(b.wb) {
		return nil, extract.Corrupt(fmt.Errorf("no workbook part %s", b.wb))
	}
	if strings.HasSuffix(strings.ToLower(b.wb), ".bin") {
		return nil, extract.Corrupt(fmt.Errorf("binary workbook part %s (xlsb)", b.wb))
	}
	if err := b.readWorkbook(); err != nil {
		return nil, err
	}
	rels, err := p.RelsOf(b.wb)
	if err != nil {
		return nil, err
	}
	b.rels = rels
	sstPart, stylesPart := bookParts(rels)
	if stylesPart != "" && p.Has(stylesPart) {
		st, err := sheet.ReadStyles(p, stylesPart)
		switch {
		case err == nil:
			b.styles = st
		case isSizeError(err):
			return nil, err
		default:
			b.log = append(b.log, ooxml.PartLog(stylesPart))
		}
	}
	if sstPart != "" && p.Has(sstPart) {
		if b.sst, err = readStrings(ctx, p, sstPart, scratch); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// readSheets reads the visible sheets in workbook order, each name once;
// objectsFailed says the drawings and comments of some sheet could not be
// read, so none are given.
func (b *xlBook) readSheets() (all []sheetPlaces, objectsFailed bool, err error) {
	used := map[string]bool{}
	for _, sh := range b.sheets {
		if err := b.ctx.Err(); err != nil {
			return nil, false, err
		}
		hiddenSheet := sh.state == "hidden" || sh.state == "veryHidden"
		if hiddenSheet && !b.hidden || sh.name == "" || used[strings.ToLower(sh.name)] {
			continue
		}
		r, ok := b.rels[sh.rid]
		if !ok || r.Target == "" || !b.p.Has(r.Target) {
			continue
		}
		var sp sheetPlaces
		var chart bool
		switch {
		case ooxml.RelTypeIs(r.Type, "worksheet"):
		case ooxml.RelTypeIs(r.Type, "chartsheet"):
			chart = true
		default:
			continue
		}
		used[strings.ToLower(sh.name)] = true
		sp.name = sh.name
		if hiddenSheet {
			sp.name = extract.HiddenSheetName(sh.name)
		}
		if chart {
			sp.hf = b.chartSheetHeaderFooter(r.Target)
		} else {
			data, err := b.readSheet(r.Target)
			if err != nil {
				return nil, false, err
			}
			sp.cells = data.lines
			sp.hf = data.hf.Lines()
		}
		if !objectsFailed {
			shapes, comments, err := b.sheetObjects(r.Target, chart)
			switch {
			case err == nil:
				sp.shapes, sp.comments = shapes, comments
			case isSizeError(err), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
				return nil, false, err
			default:
				objectsFailed = true
				b.log = append(b.log, objectsFailedLog+ooxml.SpaceControls(err.Error()))
			}
		}
		all = append(all, sp)
	}
	return all, objectsFailed, nil
}

// mainPart returns the target of the package's first officeDocument
// relationship, in sorted order, whose part exists; "" when there is none.
func mainPart(p *ooxml.Pkg) (string, error) {
	root, err := p.RelsOf("")
	if err != nil {
		return "", err
	}
	for _, r := range ooxml.SortedRels(root) {
		if ooxml.RelTypeIs(r.Type, "officeDocument") && r.Target != "" && p.Has(r.Target) {
			return r.Target, nil
		}
	}
	return "", nil
}

// bookParts returns the targets of a workbook's first shared-strings and
// first styles relationships, in sorted order ("" for none).
func bookParts(rels map[string]ooxml.Rel) (sst, styles string) {
	for _, r := range ooxml.SortedRels(rels) {
		switch {
		case ooxml.RelTypeIs(r.Type, "sharedStrings") && sst == "":
			sst = r.Target
		case ooxml.RelTypeIs(r.Type, "styles") && styles == "":
			styles = r.Target
		}
	}
	return sst, styles
}

func isSizeError(err error) bool {
	var se *ooxml.SizeError
	return errors.As(err, &se)
}

// readWorkbook reads the sheet list and date system of xl/workbook.xml.
func (b *xlBook) readWorkbook() error {
	return b.p.EachStart(b.wb, func(d *ooxml.Decoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "workbookPr":
			b.date1904 = sheet.On(ooxml.Attr(se, "date1904"))
		case "sheet":
			rid := ooxml.RelAttr(se, "id")
			if rid == "" {
				rid = ooxml.Attr(se, "id") // a writer that forgot the r: prefix
			}
			b.sheets = append(b.sheets, xlSheet{name: ooxml.Attr(se, "name"), state: ooxml.Attr(se, "state"), rid: rid})
		case "bookViews", "definedNames", "calcPr", "extLst", "fileRecoveryPr", "customWorkbookViews", "pivotCaches", "externalReferences":
			return d.Skip()
		}
		return nil
	})
}

// readSheet streams one worksheet part.
func (b *xlBook) readSheet(part string) (*sheetData, error) {
	rc, err := b.p.Open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := &sheetReader{ctx: b.ctx, sst: b.sst, styles: b.styles, date1904: b.date1904, part: part}
	return r.read(rc, b.p.Lim.XMLDepth)
}

// chartSheetHeaderFooter reads the headerFooter of a chart sheet part; a
// part that cannot be read loses only its header/footer (logged).
func (b *xlBook) chartSheetHeaderFooter(part string) []string {
	rc, err := b.p.Open(part)
	if err != nil {
		b.log = append(b.log, ooxml.PartLog(part))
		return nil
	}
	defer rc.Close()
	d, err := xmlscan.NewScanner(rc, b.p.Lim.XMLDepth)
	if err != nil {
		b.log = append(b.log, ooxml.PartLog(part))
		return nil
	}
	var hf sheet.HeaderFooter
	for {
		err := d.Next()
		if err == io.EOF {
			return hf.Lines()
		}
		if err != nil {
			b.log = append(b.log, ooxml.PartLog(part))
			return nil
		}
		if d.Kind == xmlscan.Start && string(d.Name) == "headerFooter" {
			if err := hf.Read(d); err != nil {
				b.log = append(b.log, ooxml.PartLog(part))
				return nil
			}
			return hf.Lines()
		}
	}
}
