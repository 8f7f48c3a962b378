package xls

import (
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
)

// Excel 3.0 and 4.0 worksheets (BIFF3, BIFF4): a bare stream, no compound
// file, holding one worksheet — its BOF (0x0209, 0x0409) of type
// worksheet, then the workbook settings (CODEPAGE, DATEMODE, FORMAT, XF)
// among its cell records, up to its EOF. The cell records are those of
// BIFF5 (LABEL with code-page bytes, NUMBER, RK, BOOLERR, FORMULA with
// the BIFF3 id 0x0206 or the BIFF4 id 0x0406 and its STRING, NOTE,
// HEADER, FOOTER); FORMAT records (0x001E BIFF3, 0x041E BIFF4) hold every
// number format, the built-in ones included, numbered in their order; an
// XF (0x0243, 0x0443) gives its format's number in its second byte. The
// sheet is named as LibreOffice names it. A BIFF4 workbook (BOF type
// 0x0100), BIFF2 and BIFF3/BIFF4 charts are not read (LibreOffice reads
// them).

const (
	rBOF3     = 0x0209
	rBOF4     = 0x0409
	rFormat3  = 0x001E
	rFormula3 = 0x0206
	rXF3      = 0x0243
	rXF4      = 0x0443
)

// oldSheetName is the name of the one sheet of a BIFF3/BIFF4 worksheet
// (LibreOffice's).
const oldSheetName = "Sheet1"

// oldRecord handles the workbook settings of a BIFF3/BIFF4 worksheet;
// handled is false for every other record.
func (b *book) oldRecord(typ uint16, data []byte) (handled bool, err error) {
	switch typ {
	case biff.RFilePass:
		return true, biff.ErrEncrypted // XOR obfuscation
	case biff.RCodePage, biff.RDateMode:
		return true, b.globalRecord(typ, data)
	case rFormat3, biff.RFormat:
		// BIFF4 puts two unused bytes before the string.
		off := 0
		if typ == biff.RFormat {
			off = 2
		}
		if len(data) < off+1 {
			return true, biff.ErrTruncated
		}
		b.styles.Codes[b.oldFormats] = b.biff5String(data, off, 1)
		delete(b.styles.ByID, b.oldFormats)
		b.oldFormats++
		return true, nil
	case rXF3, rXF4:
		if len(data) < 2 {
			return true, biff.ErrTruncated
		}
		b.styles.XfFmt = append(b.styles.XfFmt, int(data[1]))
		return true, nil
	}
	return false, nil
}
