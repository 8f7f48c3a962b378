// Package workspace owns the workspace folder: where it is, the paths of
// everything inside it, settings.json, the workspace lock (one indexing run
// at a time), the one function through which every file rewrite goes
// (WriteFileAtomic: temp file, fsync, rename, fsync the folder; its twin
// WriteFileAtomicUnique gives each write a temporary name of its own for
// files several processes rewrite) and the file
// operations every other write of the workspace uses (Rename, Remove,
// RemoveAll, MkdirAll, WriteNewFile, AppendSync; fileops.go): on Windows
// they retry sharing and access errors for a few seconds, because
// antivirus, the search indexer and Excel hold files open; elsewhere they
// never retry.
//
// A write that fails because of the workspace itself (full, read-only,
// failing, not writable, held open) is classified by WriteFault as a
// *FaultError: the indexing run's fault, never a source file's, with a
// Japanese message naming what could not be written (fault.go). Binaries
// built with -tags testhooks can make these operations fail on purpose
// (FUMIBAKO_TEST_WSFAULT, hooks_on.go).
//
// It imports no other fumibako package; every other package may import it.
//
// Layout (DESIGN.md "Layout on disk"):
//
//	<workspace>/settings.json                 crawl roots and options (JSON, UTF-8, no BOM)
//	<workspace>/work/lock                     the workspace lock file (flock / LockFileEx)
//	<workspace>/work/settings.lock            the settings lock: one writer of settings.json at a time
//	<workspace>/work/store/ingest_status.tsv  the ingest list (package ingestlist)
//	<workspace>/work/store/journal/ingest.tsv the ingest journal (package journal)
//	<workspace>/work/store/pending_remove.tsv removals not yet published (package journal)
//	<workspace>/work/store/content/<index>/…  place TSVs and body index parts
//	<workspace>/work/store/content/<index>/source_folder.txt  the index's crawl root (package source)
//	<workspace>/work/tmp/<host>-<pid>/w<n>/   worker scratch
//	<workspace>/work/tmp/readonly/<random>/   read-only copies opened for received indexes (package source)
//	<workspace>/work/indexing_log.txt         the last run's log
//
// settings.json (Settings): {"targetFolders": [{"name", "path", "enabled"}],
// "workers", "fileTimeoutMinutes", "removedFolders": [{"name", "path"}]}.
// removedFolders records the roots the user removed: the only indexes an
// indexing run deletes (issue 15). Every edit reads, changes and writes the
// file under the settings lock (UpdateSettings, settings_lock.go), through
// a temporary file of its own (settings.json.<random>.tmp), so edits made at
// the same time by the CLI and the web UI are all kept and a reader sees
// the old file or the new one (issue 36). A file that does not parse is moved to
// settings.json.broken-<yyyyMMdd-HHmmss>[-n] (MoveAside) and the roots still
// readable from it are saved back (SalvageSettings); a root re-added at a
// path the ingest list knows gets its old index name (AddRoot, KnownIndex).
//
// indexSources (IndexSource, sources.go) are the source folders of
// received indexes and of indexes whose files were found elsewhere (issue
// 30); MoveRoot edits a root's path without touching its index. Network
// paths (share.go): a mapped drive and its UNC path are one place
// (SamePlace, ShareAliases, through WNetGetUniversalName on Windows), and a
// folder not reachable now may be registered (FolderWarning).
//
// Names (DESIGN.md "Names"): TestIndexName, TestStoredIndexName and
// TestPlainFolderName decide which index names and path segments are legal.
package workspace
