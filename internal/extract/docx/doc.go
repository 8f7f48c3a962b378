// Package docx reads Word packages (.docx .docm; ECMA-376 Part 1,
// WordprocessingML) by streaming their XML: body paragraphs and table rows
// on their pages, text boxes, SmartArt and charts, comments, headers and
// footers, footnotes and embedded Office files, as reference/extraction.md
// §7.1–§7.2 places them (docx.go states the places). Pages come from
// rendered and explicit breaks, else from an estimate (pagelayout.go).
package docx
