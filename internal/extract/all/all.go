// Package all registers every reader of the extraction tree with package
// extract, as image/png registers its decoder with package image: the
// worker and the tools import it for its side effect,
//
//	import _ "github.com/fumibako/fumibako/internal/extract/all"
//
// and call extract.Extract. Nothing else imports a reader (internal/layers).
package all

import (
	_ "github.com/fumibako/fumibako/internal/extract/doc"
	_ "github.com/fumibako/fumibako/internal/extract/docx"
	_ "github.com/fumibako/fumibako/internal/extract/image"
	_ "github.com/fumibako/fumibako/internal/extract/libreoffice"
	_ "github.com/fumibako/fumibako/internal/extract/odf"
	_ "github.com/fumibako/fumibako/internal/extract/pdf"
	_ "github.com/fumibako/fumibako/internal/extract/ppt"
	_ "github.com/fumibako/fumibako/internal/extract/pptx"
	_ "github.com/fumibako/fumibako/internal/extract/rtf"
	_ "github.com/fumibako/fumibako/internal/extract/text"
	_ "github.com/fumibako/fumibako/internal/extract/xls"
	_ "github.com/fumibako/fumibako/internal/extract/xlsx"
)
