// Package content owns the per-file place TSVs under work/store/content:
// their file names, their bytes, the staging folder a worker fills, and the
// atomic swap that puts one source file's folder in place; and the batch
// files under work/store/batch that hold the places of small files instead
// (batch.go, issue 35: format, reader, writer).
//
// Layout (DESIGN.md "Layout on disk", reference/extraction.md §1):
//
//	store/content/<index>/<rel dir>/<file name>/<place file>.tsv
//	store/content/<index>/<rel dir>/<file name>/.places
//
// <file name> is the source file's name with its extension, unencoded. A
// per-file folder lives only until its parent folder is published into the
// body index (package bodyindex), which then deletes it.
//
// Place TSV (DESIGN.md "Formats"): UTF-8 with BOM, lines ended by CRLF, the
// lines of extract.Place as they are (Excel: line N = row N; trailing empty
// lines removed). A place without text has no file. A line holds at most
// extract.LineMaxRunes runes: a longer one was split by extract.Extract
// into continuation lines, which start with extract.ContinuationMark
// (U+FFFF) and take no number of their own (row N split in three is still
// row N, and the row after it row N+1). Reading splits a longer line that
// an earlier version wrote the same way (read.go), and EachLine reads a
// large folder a line at a time.
//
// .places: UTF-8 without BOM, LF, one place file name per line in document
// order (sheet order, page order), then the source line (`:source <ns>
// <size>`, source.go) when the crawl gave one. It is written last into the staging
// folder and marks a complete per-file folder: a folder holding .places is a
// per-file folder, anything else under store/content is a source
// subfolder. Dot names cannot clash with source names because the crawl
// skips hidden (dot) files and folders.
//
// Place file names (toIndexFileName, reference/extraction.md §2.3):
// `ページ003` → page_003.tsv, an estimated page `ページ003（目安）` →
// page_003_estimate.tsv, `スライド002（非表示）[図形]` →
// slide_002_hidden[shape].tsv, sheet `2024_上期` → 2024%5F上期.tsv; a name
// Windows reads as a device is escaped on every OS: sheet `CON` → %43ON.tsv.
package content
