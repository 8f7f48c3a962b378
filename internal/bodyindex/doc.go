// Package bodyindex owns the life cycle of the body index under
// work/store/content: publishing the per-file place TSVs of one folder
// into its index (journal 出), rebuilding a folder of another format
// version or a damaged one, and removing leftovers. It does not know
// queries (package search) or the ingest list (package indexer decides
// what to publish).
//
// It stands on two floors below it, which search reads directly:
//
//   - package bodyindex/format: one folder's index, byte for byte (the
//     manifest .fumibako-index and the parts .fumibako-index.<hex>, their
//     reader and writer, the n-gram filter of a part);
//   - package bodyindex/summary: the per-index summary
//     (.fumibako-summary.<index> in the content root) and the changing
//     marker that Publish and Rebuild set before they change a folder.
//
// Publishing writes the parts first, then the manifest (temporary name,
// fsync, rename, fsync of the folder), then deletes the parts the manifest
// no longer lists and the per-file folders it merged. The manifest rename
// is the commit point: a crash before it leaves the old manifest and its
// parts (plus orphans that the next publish deletes); a crash after it
// leaves the new index and per-file folders that the next publish merges
// again into the same bytes.
//
// # For the indexer
//
//   - Publish(dir, removed) after the per-file folders of dir are in place
//     (journal 出 once it returns nil or a *LostError; a *LostError names
//     files whose text was unreadable: ingest them again).
//   - Store.Files(dir) (format.Files) for the completeness check
//     (manifest only, cheap).
//   - A *format.RebuildError from Files or Publish (another format
//     version, or a damaged index): call Rebuild(dir) and log MsgRebuilt,
//     or, when it returns a *LostError, MsgRebuildDropped (those files
//     are missing from Files now, so the ingest-list check ingests them
//     again); then Publish as usual. format.NeedsRebuild(dir) tells in
//     advance.
//   - Store.MarkChanging for every index at the start of a run and
//     Store.WriteSummary for each at its end (package summary).
//
// # Chunks
//
// Publishing groups the files of a folder, in file-table order, into
// chunks of whole files of format.ChunkMin to format.ChunkMax bytes of
// text (64–512 KiB); each chunk starts a new part, so a part holds one
// chunk (or a piece of one large file). A chunk ends, once it holds
// format.ChunkMin, before a file whose name hashes to an anchor, so that
// adding, removing or changing a file moves only the boundaries near it.
// A chunk whose files are all unchanged since the last publish keeps its
// parts byte for byte; only the chunks holding changed files are encoded
// again. Small chunks make that cost a few hundred KB per changed file
// instead of its whole folder, at the price of repeating common keys in
// each part's gram section (about 1.4× the text in all, instead of
// 1.25×). The summary filters groups of parts, not parts (package
// summary, groups.go).
//
// # Memory
//
// A publish holds at most keepText of a folder's new text; a file of
// more than streamText is never read whole (content.EachLine streams it
// into the encoder), and no line longer than extract.LineMaxRunes
// reaches the encoder: one of an earlier version, from a per-file folder
// or an old part, is split as extract.Extract splits one now. So what a
// publish needs does not grow with any one file or line (issue 36: one
// 99 MB line made the coordinator need 5.3 GiB).
package bodyindex
