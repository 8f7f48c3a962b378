// Package export writes a search's hits to a file (reference/search.md
// §8, issue 31): search_results.txt byte for byte as the reference gives
// it (Write, WriteText, with fumibako's opt-in 更新日時/状態 columns),
// search_results.csv for a spreadsheet (WriteCSV) and JSON lines
// (WriteJSON, also the CLI's --json hit lines), the format picked by
// FormatFor. Every cell a spreadsheet would read as a formula is
// neutralised (SafeCell, issue 15). Each writer's doc comment states its
// format byte for byte.
//
// It owns no search: the hits, their place labels (search.PlaceLabel),
// cells (search.Fields) and freshness (search.Freshness) come from package
// search; the CLI's --export and the web UI's ［エクスポート］ both write
// through it. It writes only to the io.Writer it is given (the caller
// names the file).
package export
