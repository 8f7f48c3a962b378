// Package ppt reads PowerPoint 97–2003 presentations (.ppt, [MS-PPT])
// natively, the fast path before LibreOffice: slide text in presentation
// order with hidden slides, notes, comments, headers and footers and
// embedded objects, with the places of the .pptx reader (native.go states
// them; reference/extraction.md §8).
package ppt
