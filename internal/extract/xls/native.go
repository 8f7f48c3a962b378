package xls

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/officefile"
	"github.com/fumibako/fumibako/internal/officefile/cfb"
)

// Native .xls reader ([MS-XLS]): the Workbook stream (BIFF8, Excel 97 and
// later) or Book stream (BIFF5/BIFF7, Excel 5 and 95) of the compound file,
// read record by record without LibreOffice. Places are those of the
// .xlsx reader for the same workbook (internal/sheet/grid.go): every visible
// worksheet in BoundSheet order (hsState hidden and very hidden skipped,
// or read as <sheet>[非表示] with Options.HiddenSheets;
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
// default password); XOR-obfuscated workbooks, BIFF2, BIFF4 workbooks
// (BIFF3/BIFF4 worksheets are read: bare.go), a missing
// workbook stream or broken records → Corrupt, so the caller can fall back
// to LibreOffice; more text than sheet.TextCap → MsgOutOfMemory. A panic
// while parsing is Corrupt.

func init() {
	extract.RegisterFormat(extract.Format{
		Name: "xls", Extensions: []string{".xls"}, Read: readXlsNative, Native: true,
		Embedded: []extract.Embedded{
			{Holds: "Workbook", Read: embeddedWorkbook(false)},
			{Holds: "Book", Read: embeddedWorkbook(true)},
		},
	})
}

// embeddedWorkbook returns the reader of a workbook embedded in another
// file (a streams.Storage): the text cells of its visible sheets from its
// Workbook stream (BIFF8) or Book stream (BIFF5, book).
func embeddedWorkbook(book bool) func(context.Context, any) ([]string, error) {
	name := "Workbook"
	if book {
		name = "Book"
	}
	return func(ctx context.Context, container any) ([]string, error) {
		s := container.(streams.Storage)
		data, err := s.File.Stream(s.Prefix + name)
		if err != nil {
			return nil, err
		}
		return WorkbookText(ctx, bytes.NewReader(data), book)
	}
}

var (
	// errXlsNoWorkbook: no Workbook or Book stream at the root.
	errXlsNoWorkbook = errors.New("extract: xls compound file has no Workbook or Book stream")
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
	if res, ok, err := readBare(ctx, f, size); ok {
		return res, err
	}
	if err := extract.CheckUnprotected(f, size, officefile.FormatCFB); err != nil {
		return nil, err
	}
	stream, name, err := workbookStream(f, size)
	if err != nil {
		return nil, extract.Corrupt(err)
	}
	res, err = ReadWorkbookWith(ctx, stream, strings.EqualFold(name, "Book"), opt.HiddenSheets)
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
	if errors.Is(err, sheet.ErrTooMuchText) {
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
		ra = bytes.NewReader(b)
	}
	return CFBStream(ra, size, "Workbook", "Book")
}

// CFBStream returns the first root-level stream whose name matches one of
// names (in the order of names, ignoring case), read at most size bytes.
func CFBStream(ra io.ReaderAt, size int64, names ...string) (io.Reader, string, error) {
	doc, err := cfb.Open(ra, size)
	if err == nil {
		err = doc.Problem
	}
	if err != nil {
		return nil, "", fmt.Errorf("read compound file: %w", err)
	}
	for _, want := range names {
		for _, n := range doc.Nodes {
			e := &doc.Entries[n.ID]
			sz := doc.StreamSize(e)
			if len(n.Path) != 0 || sz <= 0 || !strings.EqualFold(e.Name(), want) || !e.IsStream() {
				continue
			}
			return io.LimitReader(doc.Stream(e), min(sz, size)), e.Name(), nil
		}
	}
	return nil, "", errXlsNoWorkbook
}
