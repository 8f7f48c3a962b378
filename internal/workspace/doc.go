// Package workspace owns the workspace folder: where it is, the paths of
// everything inside it, settings.json, the workspace lock (one indexing run
// at a time) and the one function through which every file rewrite goes
// (WriteFileAtomic: temp file, fsync, rename, fsync the folder).
//
// It imports no other fumibako package; every other package may import it.
//
// Layout (DESIGN.md "Layout on disk"):
//
//	<workspace>/settings.json                 crawl roots and options (JSON, UTF-8, no BOM)
//	<workspace>/work/lock                     the workspace lock file (flock / LockFileEx)
//	<workspace>/work/store/ingest_status.tsv  the ingest list (package ingestlist)
//	<workspace>/work/store/journal/ingest.tsv the ingest journal (package journal)
//	<workspace>/work/store/pending_remove.tsv removals not yet published (package journal)
//	<workspace>/work/store/content/<index>/…  place TSVs and body index parts
//	<workspace>/work/tmp/<host>-<pid>/w<n>/   worker scratch
//	<workspace>/work/indexing_log.txt         the last run's log
//
// Names (DESIGN.md "Names"): TestIndexName, TestStoredIndexName and
// TestPlainFolderName decide which index names and path segments are legal.
package workspace
