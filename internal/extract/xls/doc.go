// Package xls reads Excel 97–2003 and Excel 5/95 workbooks (.xls,
// [MS-XLS]) natively: the globals substream, each visible sheet's cells as
// Excel displays them, notes, shapes, charts and headers and footers
// (book.go describes the walk), over the record layer of package biff;
// bare BIFF3/4 worksheets without a compound file (bare.go); and the text
// cells of workbooks embedded in .doc and .ppt files, which package embed
// finds here through the registry (extract.Embedded, text.go). BIFF2 and
// what it cannot read are left to LibreOffice. Its places are those of the
// .xlsx reader for the same workbook.
package xls
