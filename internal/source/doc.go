// Package source knows where an index's source files live (issue 30;
// reference/search.md §9): the source folder of an index, looked up from
// its source_folder.txt, the settings' crawl roots (targetFolders) and
// indexSources; whether the index is a received one (not crawled here)
// whose folder the user must confirm before anything there is touched;
// how a hit's file is found when it is not where the index says (the
// other spelling of a network share, then a folder the user picks and the
// relative folders under it); which files of a received index open only
// read-only (macro-capable ones); and whether a folder answers at all
// (Prober: a network share that hangs is waited on once, not per poll).
//
// It owns one file, written by the coordinator (package indexer) and read
// by whoever opens a hit (web, cmd):
//
//	store/content/<index>/source_folder.txt
//
// UTF-8 with BOM, CRLF, like the project's other TSVs: a comment line
// starting with `#`, then one line `<index name><TAB><crawl root>`:
//
//	\ufeff# fumibako: インデックス名<TAB>元のフォルダ（インデックス作成のたびに書き直します）\r\n
//	営業\t\\srv\共有\営業\r\n
//
// The reader skips comment and empty lines, takes the first line with a
// TAB, accepts LF and a missing BOM (a file edited by hand), and ignores a
// name that differs from the index's folder (an index renamed by hand):
// the folder is what names the index. The file is `.txt` and sits beside
// the body index of the index's top folder, which every reader of the
// content tree ignores (they read directories and the body index's own
// files only). A source file named source_folder.txt at the top of a
// root has its per-file folder at that path while it is being ingested:
// the write is skipped while a folder is there and done at the end of the
// run, after the publish removed it.
//
// Paths are compared and aliased through package workspace (SamePlace,
// ShareAliases): a mapped drive and its UNC path are one place.
package source
