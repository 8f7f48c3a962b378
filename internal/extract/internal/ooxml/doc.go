// Package ooxml is the machinery shared by the OOXML readers (ECMA-376
// Part 2, Open Packaging Conventions, and the Part 1 markup they share):
// the package zip with its limits against hostile files (zip.go), parts and
// relationships (parts.go), an XML decoder for declared charsets (xml.go),
// and the token walker that turns paragraphs, rows, cells, text boxes and
// alternate content into lines on their pages (lines.go, linereader.go).
package ooxml
