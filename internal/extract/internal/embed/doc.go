// Package embed reads the Office objects embedded in documents
// (reference/extraction.md §9): OOXML packages embedded in .docx and .pptx
// (embed.go), compound-file objects of .doc and .ppt (compound.go) with
// their BIFF workbooks (workbook.go), and the charts LibreOffice embeds as
// OpenDocument (odfchart.go). Objects are numbered per file in reference
// order; an unreadable one keeps its number and is logged.
package embed
