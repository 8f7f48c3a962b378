package extract_test

// The tests of this package read files through extract.Extract, so every
// reader must be registered.
import _ "github.com/fumibako/fumibako/internal/extract/all"
