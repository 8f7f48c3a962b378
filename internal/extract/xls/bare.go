package xls

import (
	"context"
	"io"
	"os"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/officefile"
)

// Excel 2.x–4.x saved worksheets as a bare BIFF stream, without a
// compound file. Excel 3.0 and 4.0 worksheets (BIFF3, BIFF4) are read
// natively (old.go); a BIFF2 file or a BIFF4 workbook fails
// Corrupt, so the caller falls back to LibreOffice.

// readBare reads a file that starts like a bare BIFF stream; ok is false
// for any other file.
func readBare(ctx context.Context, f *os.File, size int64) (res *extract.Result, ok bool, err error) {
	head := make([]byte, 8)
	n, _ := f.ReadAt(head, 0)
	if !officefile.IsBIFFStream(head[:n]) {
		return nil, false, nil
	}
	res, err = ReadWorkbook(ctx, io.NewSectionReader(f, 0, size), false)
	if err != nil {
		return nil, true, failure(err)
	}
	return res, true, nil
}
