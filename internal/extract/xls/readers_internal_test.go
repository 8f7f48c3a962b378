package xls

// The tests read converted and embedded files through the registry, as
// the worker does, so every other reader is registered too.
import (
	_ "github.com/fumibako/fumibako/internal/extract/doc"
	_ "github.com/fumibako/fumibako/internal/extract/docx"
	_ "github.com/fumibako/fumibako/internal/extract/libreoffice"
	_ "github.com/fumibako/fumibako/internal/extract/odf"
	_ "github.com/fumibako/fumibako/internal/extract/ppt"
	_ "github.com/fumibako/fumibako/internal/extract/pptx"
	_ "github.com/fumibako/fumibako/internal/extract/text"
	_ "github.com/fumibako/fumibako/internal/extract/xlsx"
)
