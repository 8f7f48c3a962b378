// Package crawl enumerates the files of one crawl root that fumibako
// indexes: the target extensions of package extract, with the skips of
// reference/indexing.md §3.3 and DESIGN.md:
//
//   - Office owner files (~$…) and files that are not targets;
//   - hidden files and folders (dot names everywhere; the Hidden and System
//     attributes on Windows), never entered;
//   - the workspace itself and any folder that holds another workspace
//     (recognised by its ingest_status.tsv), and tebunko's own output names
//     (content_index.*.tsv, content.*.tsv, system_index*.txt,
//     システムインデックス*.txt);
//   - names that cannot be represented in the ingest list (a `\` in a name,
//     invalid UTF-8, a segment failing workspace.TestStoredIndexName) and
//     names that differ from an earlier sibling only in case: skipped with a
//     Skip entry naming them;
//   - symbolic links and junctions (never followed: nothing outside the root
//     is read). Other reparse points (Windows) are classified by tag
//     (reparse.go): cloud files and deduplicated files are files.
//
// A folder that cannot be read makes the result Incomplete: the plan then
// keeps the rows of files it did not see instead of dropping them. The crawl
// never opens a file: it reads folder listings and file metadata only, so
// cloud-only placeholders (Attributes.CloudOnly) are never downloaded.
package crawl
