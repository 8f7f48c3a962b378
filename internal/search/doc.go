// Package search finds lines in the body indexes under work/store/content
// (package bodyindex/format, and the per-index summary of package
// bodyindex/summary): query parsing and folding, matching, filters, hit
// order, the cap and place labels. It reads the body index only, never the
// places that wait to be published, and writes nothing. Its
// sub-packages: export writes hits to search_results.txt, .csv and JSON
// lines; order reorders a whole result list by file (--sort); foldregex
// compiles a regex word for the folded lines it runs on; linedfa is the
// lazy DFA a regex query scans blocks with.
//
// # Queries (DESIGN.md "Search", reference/search.md §2–§4)
//
//   - A word matches as a literal substring of one line (one Excel row, one
//     paragraph, one shape or comment, one text line), ignoring case and
//     width (full-width ASCII = ASCII, half-width katakana = katakana; see
//     textfold.String). Options.Case matches exactly; Options.Kana makes
//     hiragana and katakana equal.
//   - Several words must all be on the line; a word `-x` excludes lines
//     holding x. Options.Regex makes each word an RE2 expression (see
//     package foldregex for how it is adjusted to folding and lines).
//   - Excel shape and comment lines (`<cell><TAB><text>`) match only after
//     the first TAB; a line without TAB never matches (testCellPrefixedHit).
//   - A line over extract.LineMaxRunes is stored in pieces that overlap by
//     extract.LineOverlapRunes (issue 36): each piece is searched as a
//     line with the number of the line it belongs to, so a word across a
//     cut is found, several words match together only within one piece,
//     and a word inside an overlap may give a hit in both pieces. A hit
//     in a continuation piece of an Excel row names the row, not a cell.
//   - A hit's text is cut to 1,000 characters starting 200 before its
//     first match (reference/search.md §3, applied to every line, not
//     only text files' lines), so what a hit carries never grows with a
//     line.
//   - Filters: index names, a folder prefix, excluded folders (the
//     search-target tree, Options.Exclude), file-name wildcards
//     (`*.xlsx;見積;!*old*`), kinds, and places with shapes or comments.
//   - File names (issue 18): the words are matched, with the same
//     semantics, against each file's path under its index (folders and
//     name); a match is a hit of kind KindFileName before the file's
//     content hits (Options.NoNames turns it off). The summary keeps one
//     Bloom column of those paths per folder, so a name search skips
//     folders as a content search does. Without words, a file-name filter
//     lists every file it lets through as such a hit (Query.Listing).
//   - Each hit carries the file's modification time and size as indexed;
//     CheckFile and Checker compare them with the file on disk (one stat
//     per file) for the 削除されています / インデックス作成後に変更されています
//     markers.
//
// # Order, cap, streaming
//
// Hits come in one deterministic order: indexes by name, then folders depth
// first (a folder before its sub-folders, sub-folders by name, ignoring
// case), then files by name, places in document order, lines in order
// (reference/search.md §5). Workers search folders in parallel; a hit is
// emitted as soon as it is found and every folder before its own is done,
// so the first hits show before the search ends, and the cut at the cap
// (DefaultMax, 10,000) falls at the same place whatever the worker count.
// A worker stops a folder once the hits found in it and in the folders
// before it exceed the cap.
//
// # Speed
//
// A query's words give n-gram keys (textfold.QueryKeys; for a regex the
// literals every match contains). The index summary (bodyindex.Summary)
// turns them into the parts that may hold every key, and lists the
// folders, so the walk stats each folder instead of listing it and opens
// only the folders with such a part (a folder changed since the summary
// was written is listed and opened as without one). In an opened part a
// part without all keys in one block is skipped after a few binary
// searches, and only the blocks holding them are scanned, with a byte
// search for the longest word on the folded text (a regex: a lazy DFA,
// package linedfa, finds the lines regexp then checks); the original text
// of a block is decompressed only when a line matches. A part with many
// blocks to scan is read with plain reads rather than through its mapping.
package search
