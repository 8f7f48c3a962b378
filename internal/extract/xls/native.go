package xls

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/cfb"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/officefile"
	"github.com/richardlehane/mscfb"
)

// Native .xls reader ([MS-XLS]): the Workbook stream (BIFF8, Excel 97 and
// later) or Book stream (BIFF5/BIFF7, Excel 5 and 95) of the compound file,
// read record by record without LibreOffice. Places are those of the
// .xlsx reader for the same workbook (internal/sheet/grid.go): every visible
// worksheet in BoundSheet order (hsState hidden and very hidden skipped;
// macro and module sheets have no cells), its cell notes as
// <sheet>[コメント], text boxes, shapes with text and charts (chart.go)
// as <sheet>[図形], and its print header and footer as
// <sheet>[ヘッダー・フッター]; a visible chart sheet gives its chart text
// at A1 as <sheet>[図形] and its header/footer.
//
// Cells: LABELSST (shared strings with CONTINUE), LABEL and RSTRING,
// NUMBER, RK, MULRK, BOOLERR, and the cached result of FORMULA (a string
// result comes in the STRING record after it); BLANK and MULBLANK are
// empty. Numbers and dates are shown through the cell's XF number format
// (FORMAT records, else the built-in formats as a Japanese Excel shows
// them) with the workbook's 1900 or 1904 date system, by the same
// formatter as the .xlsx reader. BIFF5 strings are decoded from the
// CODEPAGE record's code page (932 is Shift_JIS).
//
// Workbooks encrypted with Excel's default password (RC4 or RC4 CryptoAPI)
// are decrypted on the fly (internal/biff/decrypt.go).
//
// Failures: a read password or IRM → MsgPassword or MsgRights before any
// parsing (and MsgPassword for a FILEPASS whose verifier rejects the
// default password); XOR-obfuscated workbooks, BIFF2–BIFF4, a missing
// workbook stream or broken records → Corrupt, so the caller can fall back
// to LibreOffice; more text than sheet.TextCap → MsgOutOfMemory. A panic
// while parsing is Corrupt.

func init() { extract.RegisterNative(readXlsNative, ".xls") }

var (
	// errXlsNoWorkbook: no Workbook or Book stream at the root.
	errXlsNoWorkbook = errors.New("extract: xls compound file has no Workbook or Book stream")
	// errXlsVersion: a BIFF version other than 5 or 8.
	errXlsVersion = errors.New("extract: xls BIFF version not supported natively")
)

// memoryFile is the largest file read into memory before parsing the
// compound file (faster sector walks); larger files are read in place.
const memoryFile = 64 << 20

func readXlsNative(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := extract.CheckUnprotected(f, size, officefile.FormatCFB); err != nil {
		return nil, err
	}
	stream, name, err := workbookStream(f, size)
	if err != nil {
		return nil, extract.Corrupt(err)
	}
	res, err = readXlsStream(ctx, stream, strings.EqualFold(name, "Book"))
	if err != nil {
		return nil, failure(err)
	}
	return res, nil
}

// failure maps a parse error to the reader's result error.
func failure(err error) error {
	if f, ok := extract.FailureAsIs(err); ok {
		return f
	}
	if errors.Is(err, sheet.ErrXlsTooMuchText) {
		return &extract.Error{Msg: extract.MsgOutOfMemory, Cause: err}
	}
	return extract.Corrupt(err)
}

// workbookStream opens the compound file and returns its root-level
// Workbook stream (or Book for BIFF5; names compared ignoring case), cut
// at the file size so a lying directory entry cannot make it longer.
func workbookStream(f *os.File, size int64) (io.Reader, string, error) {
	var ra io.ReaderAt = f
	if size <= memoryFile {
		b := make([]byte, size)
		if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), b); err != nil {
			return nil, "", err
		}
		ra = cfb.MemFile{B: b, Short: io.EOF}
	}
	return CFBStream(ra, size, "Workbook", "Book")
}

// CFBStream returns the first root-level stream whose name matches one of
// names (in the order of names, ignoring case), read at most size bytes.
func CFBStream(ra io.ReaderAt, size int64, names ...string) (io.Reader, string, error) {
	doc, err := mscfb.New(ra)
	if err != nil {
		return nil, "", fmt.Errorf("read compound file: %w", err)
	}
	for _, want := range names {
		for _, e := range doc.File {
			if len(e.Path) != 0 || e.Size <= 0 || !strings.EqualFold(e.Name, want) || e.FileInfo().IsDir() {
				continue
			}
			return io.LimitReader(e, min(e.Size, size)), e.Name, nil
		}
	}
	return nil, "", errXlsNoWorkbook
}

// boundSheet is one BoundSheet8 record ([MS-XLS] 2.4.28).
type boundSheet struct {
	pos     uint32 // stream offset of the sheet's BOF
	visible bool   // hsState 0
	dt      byte   // 0 worksheet or dialog, 1 macro, 2 chart, 6 VB module
	name    string
	used    bool
}

// book is the state of one workbook stream.
type book struct {
	ctx      context.Context
	rr       *biff.RecordReader
	biff5    bool
	cp       biff.CodePage
	date1904 bool
	sst      []string
	styles   *sheet.Styles
	sheets   []boundSheet
	budget   *sheet.Budget
	// globalsEnd is the stream offset after the globals' EOF.
	globalsEnd int64
	// supSelf says which SUPBOOK records are this workbook; xti are the
	// EXTERNSHEET entries (SUPBOOK index, first sheet index).
	supSelf []bool
	xti     [][2]int
}

// readXlsStream reads a workbook stream; biff5Name says the stream was
// named Book (a hint when the BOF version is unusual).
func readXlsStream(ctx context.Context, r io.Reader, biff5Name bool) (*extract.Result, error) {
	b := &book{ctx: ctx, rr: biff.NewXlsRecordReader(r), styles: sheet.NewXlStyles(), budget: sheet.NewXlsBudget()}
	if err := b.readGlobals(biff5Name); err != nil {
		return nil, err
	}
	sheets := make([]*sheet.Sheet, len(b.sheets))
	// Like the .xlsx reader, a sheet without a name or with the name of an
	// earlier sheet (ignoring case) is not a place.
	names := map[string]bool{}
	for i := range b.sheets {
		if !b.sheets[i].visible {
			continue
		}
		k := strings.ToLower(b.sheets[i].name)
		if k == "" || names[k] {
			b.sheets[i].visible = false
		}
		names[k] = true
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		typ, data, off, err := b.rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if typ != biff.RBOF {
			continue
		}
		dt := 0
		if len(data) >= 4 {
			dt = biff.Le16(data, 2)
		}
		i := b.sheetAt(uint32(off))
		switch {
		case i >= 0 && b.sheets[i].visible && b.sheets[i].dt == 0 && dt == biff.DtWorksheet:
			s := sheet.NewXlsSheet(b.sheets[i].name, b.budget)
			if err := b.readSheet(s); err != nil {
				return nil, fmt.Errorf("sheet %q: %w", s.Name, err)
			}
			sheets[i] = s
		case i >= 0 && b.sheets[i].visible && b.sheets[i].dt == 2 && dt == dtChart:
			// A chart sheet: its chart text at A1 and its header/footer,
			// as the .xlsx reader gives chart sheets.
			s := sheet.NewXlsSheet(b.sheets[i].name, b.budget)
			c, err := b.readChart(s)
			if err != nil {
				return nil, fmt.Errorf("chart sheet %q: %w", s.Name, err)
			}
			s.ChartObject(1, 1, c)
			sheets[i] = s
		default:
			if err := b.skipSubstream(); err != nil {
				return nil, err
			}
		}
	}
	if err := b.resolveCharts(sheets); err != nil {
		return nil, err
	}
	res := &extract.Result{}
	for _, s := range sheets {
		if s == nil {
			continue
		}
		if err := s.Places(res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// sheetAt finds the BoundSheet whose BOF sits at off; a file whose
// offsets are wrong gets its substreams in BoundSheet order instead.
func (b *book) sheetAt(off uint32) int {
	for i := range b.sheets {
		if b.sheets[i].pos == off && !b.sheets[i].used {
			b.sheets[i].used = true
			return i
		}
	}
	for i := range b.sheets {
		if !b.sheets[i].used && !b.posValid(b.sheets[i].pos) {
			b.sheets[i].used = true
			return i
		}
	}
	return -1
}

// posValid is false for a BoundSheet offset no substream can start at
// (before the end of the globals).
func (b *book) posValid(pos uint32) bool { return int64(pos) >= b.globalsEnd }

// skipSubstream skips records up to the EOF that closes the substream
// just opened, nested substreams (embedded charts) included.
func (b *book) skipSubstream() error {
	depth := 1
	for depth > 0 {
		typ, _, _, err := b.rr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch typ {
		case biff.RBOF:
			depth++
		case biff.REOF:
			depth--
		}
	}
	return nil
}
