package libreoffice

import (
	"fmt"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/officefile"
)

// What convertLegacy checks before LibreOffice converts a file.
//
// LibreOffice picks its import filter by looking at the file, and when no
// filter recognises it Calc and Writer import the bytes as plain text:
// junk that Excel and Word would never show (they refuse the file). Files
// that are not containers at all never get here as .xls or .ppt (legacy.go
// reads text under an Excel name itself and refuses it under a PowerPoint
// name); text under a .doc name is meant to be converted (RTF, HTML). For
// compound files two guards keep the text import out:
//
//   - a compound file whose container LibreOffice cannot open (streams.Damage,
//     internal/streams/damage.go) fails with MsgCorrupt before LibreOffice starts;
//   - an Excel workbook (a compound file with a Workbook or Book stream,
//     or a bare Excel 2.x–4.x BIFF stream) is converted with the import
//     filter forced to "MS Excel 97", which reads every BIFF version in or
//     out of a compound file and nothing else, so a workbook it cannot
//     read is not converted at all (MsgCorrupt, as Excel refuses it).
//     Converting the 61 workbooks of this kind in the shared corpus with
//     and without the forced filter gave the same sheets; only the damaged
//     OOM_alloc3.xls went from a text import to no output.
//
// Word and PowerPoint documents keep LibreOffice's detection: for a
// damaged container Writer and Impress write nothing, and a Word 6 or
// Works file needs another filter than Word 97's.

// excelFilter is Calc's import filter for binary Excel workbooks.
const excelFilter = "MS Excel 97"

// msgLogDamaged starts the log line of a compound file refused before
// conversion; the English reason follows.
const msgLogDamaged = "    複合ファイルの構造が壊れているため変換しませんでした: "

// precheck inspects the file at path before it is converted to
// target: it fails a compound file that LibreOffice cannot open as a
// container with MsgCorrupt, and returns the import filter to force ("" for
// LibreOffice's own detection).
func precheck(path, target string) (infilter string, err error) {
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	cfb := officefile.SniffHead(head) == officefile.FormatCFB
	if cfb {
		if why := streams.Damage(f, size); why != "" {
			return "", &extract.Error{Msg: extract.MsgCorrupt, Cause: fmt.Errorf("extract: %s: damaged compound file: %s", path, why),
				Log: []string{msgLogDamaged + why}}
		}
	}
	if target != "xlsx" {
		return "", nil
	}
	switch {
	case cfb:
		d, err := officefile.Detect(f, size)
		if err == nil && d.Program == officefile.ProgramExcel {
			return excelFilter, nil
		}
	case officefile.IsBIFFStream(head):
		return excelFilter, nil
	}
	// A real .xlsb (a ZIP): LibreOffice's detection finds its filter.
	return "", nil
}
