package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/richardlehane/mscfb"

	"github.com/fumibako/fumibako/internal/officefile"
)

// Native .xls reader ([MS-XLS]): the Workbook stream (BIFF8, Excel 97 and
// later) or Book stream (BIFF5/BIFF7, Excel 5 and 95) of the compound file,
// read record by record without LibreOffice. Places are those of the
// .xlsx reader for the same workbook (xls_grid.go): every visible
// worksheet in BoundSheet order (hsState hidden and very hidden skipped;
// macro and module sheets have no cells), its cell notes as
// <sheet>[コメント], text boxes, shapes with text and charts (xls_chart.go)
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
// are decrypted on the fly (xls_decrypt.go).
//
// Failures: a read password or IRM → MsgPassword or MsgRights before any
// parsing (and MsgPassword for a FILEPASS whose verifier rejects the
// default password); XOR-obfuscated workbooks, BIFF2–BIFF4, a missing
// workbook stream or broken records → Corrupt, so the caller can fall back
// to LibreOffice; more text than xlsTextCap → MsgOutOfMemory. A panic
// while parsing is Corrupt.

func init() { registerNative(readXlsNative, ".xls") }

// errXlsEncrypted: the workbook is encrypted in a way the reader does not
// decrypt (XOR obfuscation; xls_decrypt.go).
var errXlsEncrypted = errors.New("extract: xls workbook encryption not decrypted natively")

var (
	// errXlsNoWorkbook: no Workbook or Book stream at the root.
	errXlsNoWorkbook = errors.New("extract: xls compound file has no Workbook or Book stream")
	// errXlsVersion: a BIFF version other than 5 or 8.
	errXlsVersion = errors.New("extract: xls BIFF version not supported natively")
)

// xlsMemoryFile is the largest file read into memory before parsing the
// compound file (faster sector walks); larger files are read in place.
const xlsMemoryFile = 64 << 20

func readXlsNative(ctx context.Context, path string, opt Options) (res *Result, err error) {
	defer nativeRecover(&res, &err)
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := xlsProtection(f, size, officefile.FormatCFB); err != nil {
		return nil, err
	}
	stream, name, err := xlsWorkbookStream(f, size)
	if err != nil {
		return nil, Corrupt(err)
	}
	res, err = readXlsStream(ctx, stream, strings.EqualFold(name, "Book"))
	if err != nil {
		return nil, xlsFailure(err)
	}
	return res, nil
}

// xlsProtection fails an encrypted file before anything parses it
// (reference/extraction.md §10) and a file whose first bytes are not the
// format the reader expects.
func xlsProtection(r io.ReaderAt, size int64, want officefile.Format) error {
	d, err := officefile.Detect(r, size)
	if err != nil {
		return Corrupt(err)
	}
	switch d.Protection {
	case officefile.Password:
		return Fail(MsgPassword, fmt.Errorf("extract: %s", d.Reason))
	case officefile.Rights:
		return Fail(MsgRights, fmt.Errorf("extract: %s", d.Reason))
	}
	if d.Format != want {
		return Corrupt(fmt.Errorf("extract: expected %s content, found %s", want, d.Format))
	}
	return nil
}

// xlsFailure maps a parse error to the reader's result error.
func xlsFailure(err error) error {
	if f, ok := failureAsIs(err); ok {
		return f
	}
	if errors.Is(err, errXlsTooMuchText) {
		return &Error{Msg: MsgOutOfMemory, Cause: err}
	}
	return Corrupt(err)
}

// xlsWorkbookStream opens the compound file and returns its root-level
// Workbook stream (or Book for BIFF5; names compared ignoring case), cut
// at the file size so a lying directory entry cannot make it longer.
func xlsWorkbookStream(f *os.File, size int64) (io.Reader, string, error) {
	var ra io.ReaderAt = f
	if size <= xlsMemoryFile {
		b := make([]byte, size)
		if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), b); err != nil {
			return nil, "", err
		}
		ra = memFile{b: b, short: io.EOF}
	}
	return xlsCFBStream(ra, size, "Workbook", "Book")
}

// xlsCFBStream returns the first root-level stream whose name matches one of
// names (in the order of names, ignoring case), read at most size bytes.
func xlsCFBStream(ra io.ReaderAt, size int64, names ...string) (io.Reader, string, error) {
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

// xlsBoundSheet is one BoundSheet8 record ([MS-XLS] 2.4.28).
type xlsBoundSheet struct {
	pos     uint32 // stream offset of the sheet's BOF
	visible bool   // hsState 0
	dt      byte   // 0 worksheet or dialog, 1 macro, 2 chart, 6 VB module
	name    string
	used    bool
}

// xlsBook is the state of one workbook stream.
type xlsBook struct {
	ctx      context.Context
	rr       *xlsRecordReader
	biff5    bool
	cp       xlsCodePage
	date1904 bool
	sst      []string
	styles   *xlStyles
	sheets   []xlsBoundSheet
	budget   *xlsBudget
	// globalsEnd is the stream offset after the globals' EOF.
	globalsEnd int64
	// supSelf says which SUPBOOK records are this workbook; xti are the
	// EXTERNSHEET entries (SUPBOOK index, first sheet index).
	supSelf []bool
	xti     [][2]int
}

// readXlsStream reads a workbook stream; biff5Name says the stream was
// named Book (a hint when the BOF version is unusual).
func readXlsStream(ctx context.Context, r io.Reader, biff5Name bool) (*Result, error) {
	b := &xlsBook{ctx: ctx, rr: newXlsRecordReader(r), styles: newXlStyles(), budget: newXlsBudget()}
	if err := b.readGlobals(biff5Name); err != nil {
		return nil, err
	}
	sheets := make([]*xlsSheet, len(b.sheets))
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
		typ, data, off, err := b.rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if typ != xlsRBOF {
			continue
		}
		dt := 0
		if len(data) >= 4 {
			dt = le16(data, 2)
		}
		i := b.sheetAt(uint32(off))
		switch {
		case i >= 0 && b.sheets[i].visible && b.sheets[i].dt == 0 && dt == xlsDtWorksheet:
			s := newXlsSheet(b.sheets[i].name, b.budget)
			if err := b.readSheet(s); err != nil {
				return nil, fmt.Errorf("sheet %q: %w", s.name, err)
			}
			sheets[i] = s
		case i >= 0 && b.sheets[i].visible && b.sheets[i].dt == 2 && dt == xlsDtChart:
			// A chart sheet: its chart text at A1 and its header/footer,
			// as the .xlsx reader gives chart sheets.
			s := newXlsSheet(b.sheets[i].name, b.budget)
			c, err := b.readChart(s)
			if err != nil {
				return nil, fmt.Errorf("chart sheet %q: %w", s.name, err)
			}
			s.chartObject(1, 1, c)
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
	res := &Result{}
	for _, s := range sheets {
		if s == nil {
			continue
		}
		if err := s.places(res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// sheetAt finds the BoundSheet whose BOF sits at off; a file whose
// offsets are wrong gets its substreams in BoundSheet order instead.
func (b *xlsBook) sheetAt(off uint32) int {
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
func (b *xlsBook) posValid(pos uint32) bool { return int64(pos) >= b.globalsEnd }

// skipSubstream skips records up to the EOF that closes the substream
// just opened, nested substreams (embedded charts) included.
func (b *xlsBook) skipSubstream() error {
	depth := 1
	for depth > 0 {
		typ, _, _, err := b.rr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch typ {
		case xlsRBOF:
			depth++
		case xlsREOF:
			depth--
		}
	}
	return nil
}
