// Package biff reads BIFF workbooks ([MS-XLS]: BIFF8 of Excel 97 and later,
// BIFF5/7 of Excel 5 and 95, BIFF3/4 worksheets): the globals substream,
// each visible sheet's cells as Excel displays them, notes, shapes, charts
// and headers and footers, decryption of the default RC4 password. It
// serves the .xls reader (package xls) and workbooks embedded in .doc and
// .ppt files (package embed); book.go describes the walk.
package biff
