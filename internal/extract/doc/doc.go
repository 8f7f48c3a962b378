// Package doc reads Word 97–2003 documents (.doc, [MS-DOC]) and Word 6.0/95
// documents natively, the fast path before LibreOffice: the FIB, the piece
// table, paragraphs and tables, text boxes, comments, headers and footers,
// footnotes and embedded objects, with the places of the .docx reader
// (native.go states them; reference/extraction.md §7.1). 8-bit text of
// Word 6/95 is decoded by the document's code page (codepage.go).
package doc
