//go:build testhooks

package extract

// TestOCRExtension is a target only in binaries built with -tags
// testhooks: the end-to-end tests of OCR runs (issue 29) register a fake
// reader for it (cmd/fumibako/ocr_hooks_on.go) whose lines stand for scan
// pages, so that kills, deadlines and the cache are shown with real
// processes before any real image reader exists.
const TestOCRExtension = ".ocrtest"

func init() { targetKind[TestOCRExtension] = KindPDF }
