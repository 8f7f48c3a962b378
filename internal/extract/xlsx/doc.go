// Package xlsx reads Excel workbooks: packages (.xlsx .xlsm; ECMA-376
// Part 1, SpreadsheetML) and binary workbooks (.xlsb, [MS-XLSB]), streaming
// each worksheet into display values as a Japanese Excel shows them, with
// shapes, comments, charts and headers and footers (xlsx.go states the
// places; reference/extraction.md §5–§6).
package xlsx
