package xls

import (
	"fmt"
	"io"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
)

// DumpRecords writes the BIFF records of the workbook stream of the .xls
// at path — those of the given types, all when types is empty; the first
// 64 bytes of each unless full — decrypted when the file uses Excel's
// default password, for looking at a file by hand (tools/extractdump).
func DumpRecords(w io.Writer, path string, types map[uint16]bool, full bool) error {
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, _, err := workbookStream(f, size)
	if err != nil {
		return err
	}
	rr := biff.NewRecordReader(r)
	for {
		typ, data, off, err := rr.Next()
		if err != nil {
			break
		}
		if typ == biff.RFilePass {
			rr.Dec, _ = biff.NewDecrypter(data)
		}
		if len(types) == 0 || types[typ] {
			if len(data) > 64 && !full {
				data = data[:64]
			}
			fmt.Fprintf(w, "%8d %04X %x\n", off, typ, data)
		}
	}
	return nil
}
