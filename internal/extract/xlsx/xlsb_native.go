package xlsx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/biff12"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/officefile"
)

// Native .xlsb reader ([MS-XLSB]): the ZIP package of an Excel binary
// workbook, its parts read record by record. Places are those of the
// .xlsx reader for the same workbook (internal/sheet/grid.go):
//
//   - xl/workbook.bin: BrtBundleSh gives the sheets in order, with their
//     visibility (hsState 1 hidden, 2 very hidden: skipped, or read as
//     <sheet>[非表示] with Options.HiddenSheets) and the
//     relationship to the sheet part; BrtWbProp the 1904 date system;
//   - xl/sharedStrings.bin: BrtSSTItem (spilled to the scratch folder when
//     big, as the .xlsx reader does);
//   - xl/styles.bin: BrtFmt number formats and the BrtXF records of the
//     cell XF collection, so cells show through the .xlsx reader's
//     formatter;
//   - each visible worksheet part: BrtRowHdr and the cell records
//     BrtCellIsst, BrtCellSt, BrtCellRString, BrtCellRk, BrtCellReal,
//     BrtCellBool, BrtCellError and the cached formula results
//     BrtFmlaString, BrtFmlaNum, BrtFmlaBool, BrtFmlaError; blanks are
//     empty; BrtBeginHeaderFooter gives <sheet>[ヘッダー・フッター];
//   - the sheet's comments part (binary, BrtBeginComment + BrtCommentText)
//     gives <sheet>[コメント]; its drawing part is XML and is read by the
//     .xlsx reader's drawing code for <sheet>[図形];
//   - a visible chart sheet gives its chart text at A1 as <sheet>[図形]
//     and its header/footer, as in the .xlsx reader.
//
// Failures: an encrypted package (a compound file) → MsgPassword or
// MsgRights before anything is parsed; not a ZIP, no workbook.bin, or
// broken records → Corrupt (so the caller falls back to LibreOffice); a
// size limit of reference/extraction.md §13 → MsgTooLarge; more text than
// sheet.TextCap → MsgOutOfMemory. A panic while parsing is Corrupt.

func init() {
	extract.RegisterFormat(extract.Format{Name: "xlsb", Extensions: []string{".xlsb"}, Read: readXlsbNative, Native: true})
}

// errXlsbNoWorkbook: the package has no binary workbook part.
var errXlsbNoWorkbook = errors.New("extract: xlsb package has no binary workbook part")

func readXlsbNative(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return nil, err
	}
	err = extract.CheckUnprotected(f, size, officefile.FormatZIP)
	f.Close()
	if err != nil {
		return nil, err
	}
	p, err := ooxml.OpenPackage(path, opt.ResolvedLimits())
	if err != nil {
		return nil, failure(path, err)
	}
	defer p.Close()
	res, err = readXlsbPackage(ctx, p, opt.Scratch, opt.HiddenSheets)
	if err != nil {
		return nil, failure(path, err)
	}
	return res, nil
}

// failure maps an error of the .xlsb reader to its result error.
func failure(path string, err error) error {
	if errors.Is(err, sheet.ErrTooMuchText) {
		return &extract.Error{Msg: extract.MsgOutOfMemory, Cause: err}
	}
	return ooxml.Failure(path, err)
}

// sheetRef is one BrtBundleSh record.
type sheetRef struct {
	hidden bool
	rid    string
	name   string
}

// xlsbBook is the state of one binary workbook.
type xlsbBook struct {
	ctx      context.Context
	p        *ooxml.Pkg
	wb       string
	date1904 bool
	sheets   []sheetRef
	sst      *xlStrings
	styles   *sheet.Styles
	budget   *sheet.Budget
	log      []string
}

func readXlsbPackage(ctx context.Context, p *ooxml.Pkg, scratch string, hidden bool) (*extract.Result, error) {
	b := &xlsbBook{ctx: ctx, p: p, styles: sheet.NewStyles(), sst: &xlStrings{}, budget: sheet.NewBudget()}
	wb, err := mainPart(p)
	if err != nil {
		return nil, err
	}
	b.wb = wb
	if b.wb == "" && p.Has("xl/workbook.bin") {
		b.wb = "xl/workbook.bin"
	}
	if b.wb == "" || !strings.HasSuffix(strings.ToLower(b.wb), ".bin") {
		return nil, errXlsbNoWorkbook
	}
	if err := b.readWorkbook(); err != nil {
		return nil, err
	}
	rels, err := p.RelsOf(b.wb)
	if err != nil {
		return nil, err
	}
	sstPart, stylesPart := bookParts(rels)
	if stylesPart != "" && p.Has(stylesPart) {
		if err := b.readStyles(stylesPart); err != nil {
			if isSizeError(err) {
				return nil, err
			}
			// Like the .xlsx reader: every cell shows as General.
			b.styles = sheet.NewStyles()
			b.log = append(b.log, ooxml.PartLog(stylesPart))
		}
	}
	if sstPart != "" && p.Has(sstPart) {
		if err := b.readStrings(sstPart, scratch); err != nil {
			return nil, err
		}
	}
	defer b.sst.close()

	res := &extract.Result{}
	used := map[string]bool{}
	for _, sh := range b.sheets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := strings.ToLower(sh.name)
		if sh.hidden && !hidden || k == "" || used[k] {
			continue
		}
		r, ok := rels[sh.rid]
		if !ok || r.Target == "" || !p.Has(r.Target) {
			continue
		}
		chart := ooxml.RelTypeIs(r.Type, "chartsheet")
		if !chart && !ooxml.RelTypeIs(r.Type, "worksheet") {
			continue
		}
		used[k] = true
		name := sh.name
		if sh.hidden {
			name = extract.HiddenSheetName(name) // Options.HiddenSheets (issue 31)
		}
		s := sheet.New(name, b.budget)
		// A chart sheet has no cells; its part still holds the header and
		// footer, and its drawing the chart (at A1).
		if err := b.readSheet(s, r.Target); err != nil {
			return nil, err
		}
		if err := b.sheetObjects(s, r.Target, chart); err != nil {
			return nil, err
		}
		if err := s.Places(res); err != nil {
			return nil, err
		}
	}
	res.Log = b.log
	return res, nil
}

// open opens a binary part under the cell-data stream caps.
func (b *xlsbBook) open(part string) (io.ReadCloser, *biff12.RecordReader, error) {
	rc, err := b.p.Open(part)
	if err != nil {
		return nil, nil, err
	}
	return rc, biff12.NewReader(rc), nil
}

// readWorkbook reads the sheet list and date system of workbook.bin.
func (b *xlsbBook) readWorkbook() error {
	rc, rr, err := b.open(b.wb)
	if err != nil {
		return err
	}
	defer rc.Close()
	for {
		typ, data, err := rr.Next(func(t int) bool { return t == biff12.BundleSh || t == biff12.WbProp })
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", b.wb, err)
		}
		switch typ {
		case biff12.WbProp:
			if len(data) >= 4 {
				b.date1904 = data[0]&1 != 0
			}
		case biff12.BundleSh:
			// hsState (4), iTabID (4), strRelID, strName
			if len(data) < 8 {
				return fmt.Errorf("read %s: BrtBundleSh: %w", b.wb, biff12.ErrShort)
			}
			rid, name, ok := bundleNames(data, 8)
			if !ok {
				// Some early writers put 4 more bytes before the names
				// (tika's testEXCEL.xlsb).
				if rid, name, ok = bundleNames(data, 12); !ok {
					return fmt.Errorf("read %s: BrtBundleSh: %w", b.wb, biff12.ErrShort)
				}
			}
			if len(b.sheets) >= 65536 {
				return fmt.Errorf("read %s: more than 65536 sheets", b.wb)
			}
			b.sheets = append(b.sheets, sheetRef{hidden: biff.Le32(data, 0)&3 != 0, rid: rid, name: name})
		}
	}
}

// readStyles reads the number formats (BrtFmt) and the cell XFs (BrtXF
// between BrtBeginCellXFs and BrtEndCellXFs) of styles.bin.
func (b *xlsbBook) readStyles(part string) error {
	rc, rr, err := b.open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	inCellXFs := false
	for {
		typ, data, err := rr.Next(func(t int) bool {
			return t == biff12.Fmt || t == biff12.XF || t == biff12.BeginCellXFs || t == biff12.EndCellXFs
		})
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		switch typ {
		case biff12.BeginCellXFs:
			inCellXFs = true
		case biff12.EndCellXFs:
			inCellXFs = false
		case biff12.Fmt:
			if len(data) < 2 {
				continue
			}
			code, _, ok := biff12.Wide(data, 2)
			if ok {
				b.styles.Codes[biff.Le16(data, 0)] = code
			}
		case biff12.XF:
			if inCellXFs && len(data) >= 4 {
				b.styles.XfFmt = append(b.styles.XfFmt, biff.Le16(data, 2))
			}
		}
	}
}

// readStrings reads sharedStrings.bin into the string table.
func (b *xlsbBook) readStrings(part, scratch string) error {
	b.sst = &xlStrings{scratch: scratch}
	rc, rr, err := b.open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
		_, data, err := rr.Next(func(t int) bool { return t == biff12.SSTItem })
		if err == io.EOF {
			return b.sst.flush()
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		s, _ := biff12.RichStr(data, 0)
		if err := b.sst.add(s); err != nil {
			return err
		}
	}
}

// bundleNames reads strRelID and strName of a BrtBundleSh from i; ok
// only when both fit and end the record.
func bundleNames(data []byte, i int) (rid, name string, ok bool) {
	rid, i, ok = biff12.Wide(data, i)
	if !ok {
		return "", "", false
	}
	name, i, ok = biff12.Wide(data, i)
	return rid, name, ok && i == len(data)
}
