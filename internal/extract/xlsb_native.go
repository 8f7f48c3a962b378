package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/officefile"
)

// Native .xlsb reader ([MS-XLSB]): the ZIP package of an Excel binary
// workbook, its parts read record by record. Places are those of the
// .xlsx reader for the same workbook (xls_grid.go):
//
//   - xl/workbook.bin: BrtBundleSh gives the sheets in order, with their
//     visibility (hsState 1 hidden, 2 very hidden: skipped) and the
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
// xlsTextCap → MsgOutOfMemory. A panic while parsing is Corrupt.

func init() { registerNative(readXlsbNative, ".xlsb") }

// errXlsbNoWorkbook: the package has no binary workbook part.
var errXlsbNoWorkbook = errors.New("extract: xlsb package has no binary workbook part")

func readXlsbNative(ctx context.Context, path string, opt Options) (res *Result, err error) {
	defer nativeRecover(&res, &err)
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	err = xlsProtection(f, size, officefile.FormatZIP)
	f.Close()
	if err != nil {
		return nil, err
	}
	p, err := openPackage(path, opt.limits())
	if err != nil {
		return nil, xlsbFailure(path, err)
	}
	defer p.Close()
	res, err = readXlsbPackage(ctx, p, opt.Scratch)
	if err != nil {
		return nil, xlsbFailure(path, err)
	}
	return res, nil
}

// xlsbFailure maps an error of the .xlsb reader to its result error.
func xlsbFailure(path string, err error) error {
	if errors.Is(err, errXlsTooMuchText) {
		return &Error{Msg: MsgOutOfMemory, Cause: err}
	}
	return ooxmlFailure(path, err)
}

// xlsbSheetRef is one BrtBundleSh record.
type xlsbSheetRef struct {
	hidden bool
	rid    string
	name   string
}

// xlsbBook is the state of one binary workbook.
type xlsbBook struct {
	ctx      context.Context
	p        *pkg
	streams  *xlStreams
	wb       string
	date1904 bool
	sheets   []xlsbSheetRef
	sst      *xlStrings
	styles   *xlStyles
	budget   *xlsBudget
	log      []string
}

func readXlsbPackage(ctx context.Context, p *pkg, scratch string) (*Result, error) {
	b := &xlsbBook{ctx: ctx, p: p, styles: newXlStyles(), sst: &xlStrings{}, budget: newXlsBudget(),
		streams: &xlStreams{max: xlStreamPartFactor * p.lim.ZipTotalBytes, partMax: xlStreamPartFactor * p.lim.ZipPartBytes}}
	wb, err := xlMainPart(p)
	if err != nil {
		return nil, err
	}
	b.wb = wb
	if b.wb == "" && p.has("xl/workbook.bin") {
		b.wb = "xl/workbook.bin"
	}
	if b.wb == "" || !strings.HasSuffix(strings.ToLower(b.wb), ".bin") {
		return nil, errXlsbNoWorkbook
	}
	if err := b.readWorkbook(); err != nil {
		return nil, err
	}
	rels, err := p.relsOf(b.wb)
	if err != nil {
		return nil, err
	}
	sstPart, stylesPart := xlBookParts(rels)
	if stylesPart != "" && p.has(stylesPart) {
		if err := b.readStyles(stylesPart); err != nil {
			if xlIsSizeError(err) {
				return nil, err
			}
			// Like the .xlsx reader: every cell shows as General.
			b.styles = newXlStyles()
			b.log = append(b.log, ooxmlPartLog(stylesPart))
		}
	}
	if sstPart != "" && p.has(sstPart) {
		if err := b.readStrings(sstPart, scratch); err != nil {
			return nil, err
		}
	}
	defer b.sst.close()

	res := &Result{}
	used := map[string]bool{}
	for _, sh := range b.sheets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := strings.ToLower(sh.name)
		if sh.hidden || k == "" || used[k] {
			continue
		}
		r, ok := rels[sh.rid]
		if !ok || r.Target == "" || !p.has(r.Target) {
			continue
		}
		chart := relTypeIs(r.Type, "chartsheet")
		if !chart && !relTypeIs(r.Type, "worksheet") {
			continue
		}
		used[k] = true
		s := newXlsSheet(sh.name, b.budget)
		// A chart sheet has no cells; its part still holds the header and
		// footer, and its drawing the chart (at A1).
		if err := b.readSheet(s, r.Target); err != nil {
			return nil, err
		}
		if err := b.sheetObjects(s, r.Target, chart); err != nil {
			return nil, err
		}
		if err := s.places(res); err != nil {
			return nil, err
		}
	}
	res.Log = b.log
	return res, nil
}

// open opens a binary part under the cell-data stream caps.
func (b *xlsbBook) open(part string) (io.ReadCloser, *xlsbRecordReader, error) {
	rc, err := xlOpenStream(b.p, b.streams, part)
	if err != nil {
		return nil, nil, err
	}
	return rc, newXlsbRecordReader(rc), nil
}

// readWorkbook reads the sheet list and date system of workbook.bin.
func (b *xlsbBook) readWorkbook() error {
	rc, rr, err := b.open(b.wb)
	if err != nil {
		return err
	}
	defer rc.Close()
	for {
		typ, data, err := rr.next(func(t int) bool { return t == xlsbBundleSh || t == xlsbWbProp })
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", b.wb, err)
		}
		switch typ {
		case xlsbWbProp:
			if len(data) >= 4 {
				b.date1904 = data[0]&1 != 0
			}
		case xlsbBundleSh:
			// hsState (4), iTabID (4), strRelID, strName
			if len(data) < 8 {
				return fmt.Errorf("read %s: BrtBundleSh: %w", b.wb, errXlsbShort)
			}
			rid, name, ok := xlsbBundleNames(data, 8)
			if !ok {
				// Some early writers put 4 more bytes before the names
				// (tika's testEXCEL.xlsb).
				if rid, name, ok = xlsbBundleNames(data, 12); !ok {
					return fmt.Errorf("read %s: BrtBundleSh: %w", b.wb, errXlsbShort)
				}
			}
			if len(b.sheets) >= 65536 {
				return fmt.Errorf("read %s: more than 65536 sheets", b.wb)
			}
			b.sheets = append(b.sheets, xlsbSheetRef{hidden: le32(data, 0)&3 != 0, rid: rid, name: name})
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
		typ, data, err := rr.next(func(t int) bool {
			return t == xlsbFmt || t == xlsbXF || t == xlsbBeginCellXFs || t == xlsbEndCellXFs
		})
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		switch typ {
		case xlsbBeginCellXFs:
			inCellXFs = true
		case xlsbEndCellXFs:
			inCellXFs = false
		case xlsbFmt:
			if len(data) < 2 {
				continue
			}
			code, _, ok := xlsbWide(data, 2)
			if ok {
				b.styles.codes[le16(data, 0)] = code
			}
		case xlsbXF:
			if inCellXFs && len(data) >= 4 {
				b.styles.xfFmt = append(b.styles.xfFmt, le16(data, 2))
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
		_, data, err := rr.next(func(t int) bool { return t == xlsbSSTItem })
		if err == io.EOF {
			return b.sst.flush()
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", part, err)
		}
		s, _ := xlsbRichStr(data, 0)
		if err := b.sst.add(s); err != nil {
			return err
		}
	}
}

// xlsbBundleNames reads strRelID and strName of a BrtBundleSh from i; ok
// only when both fit and end the record.
func xlsbBundleNames(data []byte, i int) (rid, name string, ok bool) {
	rid, i, ok = xlsbWide(data, i)
	if !ok {
		return "", "", false
	}
	name, i, ok = xlsbWide(data, i)
	return rid, name, ok && i == len(data)
}
