// Package share writes one index into a zip file and reads such a zip back
// into a workspace (issue 30; tebunko's index export and import,
// reference/search.md §10.6 and reference/gui.md §2.6). It owns the zip
// format below, the checks an import makes before anything is written,
// and the order in which an import lands in the workspace, with its
// recovery after a kill. It does not crawl, publish or search: an
// imported index is body-index folders, ingest-list rows and a settings
// entry that the rest of the program already reads.
//
// # Zip layout
//
// Entries, all regular files, names in UTF-8 with `/` (the zip rule on
// every OS), Deflate-compressed:
//
//	ingest_status.tsv                     the index's ingest-list rows in the seed's format
//	                                      (UTF-8 BOM, TAB, CRLF, the header, no folder
//	                                      line), 相対パス without "<index name>\"
//	summary                               the index's summary (.fumibako-summary.<index>,
//	                                      package bodyindex), when it has one
//	index/<rel dir>/.fumibako-index       the body index of each folder of the index:
//	index/<rel dir>/.fumibako-index.<id>  its manifest and parts (<id>: 32 hex digits);
//	                                      <rel dir> empty for the index's own folder
//	fumibako-index.json                   the manifest, written last
//
// Per-file folders (place TSVs not yet published) are never exported: an
// index that has them is refused until an indexing run publishes them, as
// tebunko refuses while per-file TSVs exist.
//
// # Manifest (fumibako-index.json)
//
// UTF-8 JSON without a BOM, tebunko's fields with fumibako's format name:
//
//	{
//	  "format": "fumibako-index",
//	  "formatVersion": 1,
//	  "appVersion": "0.9.0",
//	  "exportedAt": "2026-12-04T21:00:00+09:00",
//	  "indexName": "営業",
//	  "sourceFolder": "C:\\data\\営業",
//	  "files": [{"path": "ingest_status.tsv", "size": 288, "sha256": "9f…"}, …]
//	}
//
// files lists every other entry once, with its uncompressed size and the
// SHA-256 of its bytes (64 lower-case hex digits). FormatVersion keeps its
// history in its comment.
//
// # What an import checks, before it writes anything
//
// A zip that is not one (a truncated file: no central directory), an
// entry name that is absolute or leaves its folder (`..`, `\`, a drive
// letter), a name Windows cannot hold (reserved device names, characters
// illegal in file names, a trailing dot or space, two names that differ
// only in case), an entry the manifest does not list or a listed file the
// zip lacks, a manifest over 64 MB, another format or a newer format
// version, a file whose size or SHA-256 differs from the manifest, an
// ingest-list row that does not read, and a disk without room for the
// total size plus 1 GB: each is refused with its own Japanese message
// (*RefusedError) and nothing is written. A name in use is a *ClashError:
// the caller offers another name or the overwrite.
//
// # How an import lands (crash safety)
//
// The importer holds the workspace lock (one indexing run or import at a
// time) and:
//
//  1. verifies the zip (above);
//  2. extracts it into a staging folder work/tmp/import-<pid>-<n>: index/,
//     summary, rows.tsv (the rows with the new name's prefix, an ingest
//     list of its own), each file fsynced;
//  3. writes work/store/import_pending.json (workspace.WriteFileAtomic):
//     the commit point. Before it, a kill leaves only the staging folder,
//     which the next start removes: nothing was imported. After it, the
//     next start finishes the import (Recover), so a kill leaves the whole
//     index or nothing, never half of it;
//  4. moves an index it overwrites into the staging folder, renames
//     staging index/ to work/store/content/<name> (one rename: searches
//     see the whole index at once), and puts the summary beside it;
//  5. appends the rows to the ingest list (after dropping the name's old
//     rows, when there are any: an overwrite, or a recovery);
//  6. records the source folder in settings.json indexSources
//     (Confirmed false) through workspace.UpdateSettings, and cancels a
//     pending removal of the name;
//  7. removes import_pending.json, then the staging folder.
//
// Every step from 4 on is idempotent, which is what lets Recover run them
// again. The indexer calls Recover at the start of every run, under the
// same lock, before it reads the ingest list; Import calls it too.
//
// A received index is not a crawl root: an indexing run neither crawls it
// nor deletes it (only settings' removedFolders are deleted), does not
// mark or rewrite its summary, and keeps its rows; search and the web
// tree list it as every index folder.
package share
