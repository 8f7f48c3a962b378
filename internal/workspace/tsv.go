package workspace

import (
	"bytes"
	"strings"
)

// The workspace's small TSV files (store/ocr_waiting.tsv, the OCR key
// lists ocr/files/*.tsv, an index's source_folder.txt) are written in the
// seed's line form, so that a person opening one in Excel or Notepad
// reads it as the ingest list:
//
//	UTF-8 with a BOM, fields separated by TAB, each line ended by CRLF
//
// Reading takes a file without the BOM or with LF endings too, and skips
// empty lines. The ingest list and the journal keep their own readers:
// the seed gives them rules of their own (a torn last line, headers,
// legacy forms).

// utf8BOM starts every TSV the workspace writes.
const utf8BOM = "\ufeff"

// tsvField keeps a field on its line: TAB, CR and LF become spaces.
var tsvField = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ")

// EncodeTSV returns the bytes of a TSV file holding rows.
func EncodeTSV(rows [][]string) []byte {
	var b bytes.Buffer
	b.WriteString(utf8BOM)
	for _, row := range rows {
		for i, f := range row {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(tsvField.Replace(f))
		}
		b.WriteString("\r\n")
	}
	return b.Bytes()
}

// DecodeTSV returns the rows of a TSV file's bytes, empty lines left out.
func DecodeTSV(data []byte) [][]string {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	var rows [][]string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	return rows
}
