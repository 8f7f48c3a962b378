// Package xls reads Excel 97–2003 and Excel 5/95 workbooks (.xls, [MS-XLS])
// natively through package biff, bare BIFF3/4 worksheets without a compound
// file (bare.go), and leaves BIFF2 and what it cannot read to LibreOffice.
// Its places are those of the .xlsx reader for the same workbook.
package xls
