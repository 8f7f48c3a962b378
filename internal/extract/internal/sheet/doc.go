// Package sheet is the worksheet model the spreadsheet readers share
// (.xlsx, .xlsb, .xls, OpenDocument): a row's displayed cells joined into
// a line (line N = row N, reference/extraction.md §5.3), shared strings and
// styles, headers and footers (§5.6). Worksheet parts are read with
// package xmlscan.
package sheet
