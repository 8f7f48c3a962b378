// Package pptx reads PowerPoint packages (.pptx .pptm; ECMA-376 Part 1,
// PresentationML) by streaming their XML: slides in display order with
// hidden slides, notes, SmartArt and charts, legacy and modern comments,
// footers and embedded Office files, as reference/extraction.md §8.1–§8.2
// places them (pptx.go states the places).
package pptx
