package xls

import (
	"errors"
	"fmt"
	"io"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
)

// The workbook globals substream ([MS-XLS] 2.1.7.20.1): BOF (BIFF version),
// FILEPASS, CODEPAGE, DATEMODE, FORMAT, XF, BOUNDSHEET, SST with its
// CONTINUE records, SUPBOOK and EXTERNSHEET (for chart references), up to
// its EOF.

// readGlobals reads the workbook globals substream up to its EOF.
func (b *book) readGlobals(biff5Name bool) error {
	typ, data, off, err := b.rr.Next()
	if err == io.EOF {
		return fmt.Errorf("xls: empty workbook stream")
	}
	if err != nil {
		return err
	}
	switch typ {
	case biff.RBOF:
	case rBOF3, rBOF4:
		// A BIFF3/BIFF4 worksheet (old.go) has no globals.
		if len(data) >= 4 && biff.Le16(data, 2) == biff.DtWorksheet {
			b.old, b.biff5 = 3, true
			if typ == rBOF4 {
				b.old = 4
			}
			return nil
		}
		return fmt.Errorf("%w (BOF record 0x%04X)", errXlsVersion, typ)
	case 0x0009:
		return fmt.Errorf("%w (BOF record 0x%04X)", errXlsVersion, typ)
	default:
		return fmt.Errorf("xls: workbook stream starts with record 0x%04X, not BOF", typ)
	}
	if len(data) < 4 {
		return biff.RecordError(typ, off, biff.ErrTruncated)
	}
	switch vers, dt := biff.Le16(data, 0), biff.Le16(data, 2); {
	case dt != biff.DtGlobals:
		return fmt.Errorf("%w (first substream type 0x%04X, not workbook globals)", errXlsVersion, dt)
	case vers == biff.BIFF8:
	case vers == biff.BIFF5:
		b.biff5 = true
	default:
		b.biff5 = biff5Name
	}
	for {
		if err := b.ctx.Err(); err != nil {
			return err
		}
		typ, data, off, err := b.rr.Next()
		if err == io.EOF {
			return fmt.Errorf("xls: workbook globals without EOF")
		}
		if err != nil {
			return err
		}
		if err := b.globalRecord(typ, data); err != nil {
			return biff.RecordError(typ, off, err)
		}
		if typ == biff.REOF {
			b.globalsEnd = b.rr.Pos
			return nil
		}
	}
}

// globalRecord handles one record of the globals substream.
func (b *book) globalRecord(typ uint16, data []byte) error {
	switch typ {
	case biff.RFilePass:
		if b.biff5 {
			return biff.ErrEncrypted // XOR obfuscation
		}
		d, err := biff.NewDecrypter(data)
		if errors.Is(err, biff.ErrPassword) {
			return extract.Fail(extract.MsgPassword, err)
		}
		if err != nil {
			return err
		}
		b.rr.Dec = d
	case biff.RCodePage:
		if len(data) >= 2 {
			b.cp = CodePage{Enc: Encoding(biff.Le16(data, 0))}
		}
	case biff.RDateMode:
		if len(data) >= 2 {
			b.date1904 = biff.Le16(data, 0) == 1
		}
	case biff.RFormat:
		return b.format(data)
	case biff.RXF:
		if len(data) < 4 {
			return biff.ErrTruncated
		}
		b.styles.XfFmt = append(b.styles.XfFmt, biff.Le16(data, 2))
	case biff.RBoundSheet:
		return b.boundSheet(data)
	case biff.RSST:
		return b.readSST(data)
	case biff.RSupBook:
		// cTab (2), then 0x0401 for the workbook itself.
		if len(b.supSelf) < 65536 {
			b.supSelf = append(b.supSelf, len(data) >= 4 && biff.Le16(data, 2) == 0x0401)
		}
	case biff.RExternSheet:
		if b.biff5 || len(data) < 2 {
			break
		}
		for i := 2; i+6 <= len(data) && len(b.xti) < biff.Le16(data, 0); i += 6 {
			b.xti = append(b.xti, [2]int{biff.Le16(data, i), int(int16(biff.Le16(data, i+2)))})
		}
	}
	return nil
}

// format reads a FORMAT record ([MS-XLS] 2.4.126): ifmt and the format
// code (BIFF5: a byte count and code-page bytes).
func (b *book) format(data []byte) error {
	if len(data) < 3 {
		return biff.ErrTruncated
	}
	id := biff.Le16(data, 0)
	var code string
	if b.biff5 {
		code = b.biff5String(data, 2, 1)
	} else {
		code, _, _ = UnicodeString(data, 2)
	}
	b.styles.Codes[id] = code
	delete(b.styles.ByID, id)
	return nil
}

// boundSheet reads a BoundSheet8 record.
func (b *book) boundSheet(data []byte) error {
	if len(data) < 7 {
		return biff.ErrTruncated
	}
	s := boundSheet{pos: biff.Le32(data, 0), visible: data[4]&3 == 0, dt: data[5]}
	if b.biff5 {
		s.name = b.biff5String(data, 6, 1)
	} else {
		s.name, _, _ = ShortUnicodeString(data, 6)
	}
	if len(b.sheets) >= 65536 {
		return fmt.Errorf("xls: more than 65536 sheets")
	}
	b.sheets = append(b.sheets, s)
	return nil
}

// readSST reads the shared string table ([MS-XLS] 2.4.265) and its
// CONTINUE records. The declared counts only bound the preallocation by
// what the records can hold (3 bytes per string at least), so a lying
// count allocates nothing.
func (b *book) readSST(data []byte) error {
	if len(data) < 8 {
		return biff.ErrTruncated
	}
	unique := int(biff.Le32(data, 4))
	segs, err := b.rr.WithContinues(data, b.budget)
	if err != nil {
		return err
	}
	total := 0
	for _, s := range segs {
		total += len(s)
	}
	if unique < 0 || unique > total/3 {
		unique = total / 3
	}
	b.sst = make([]string, 0, unique)
	c := &Cursor{Segs: segs, P: 8}
	for {
		if !c.Advance() {
			// Fewer strings than declared is common (calamine gh548): keep
			// what the table holds.
			return nil
		}
		s, ok := c.RichString()
		if !ok {
			return nil
		}
		if err := b.budget.Add(len(s) + 16); err != nil {
			return err
		}
		b.sst = append(b.sst, s)
		if len(b.sst)%4096 == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
	}
}
