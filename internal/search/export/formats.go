package export

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// Export formats (issue 31): the CLI's --export picks one from the file's
// extension or --format; the web UI's export offers txt and csv. One
// writer per format serves both.
const (
	FormatText = "txt"  // search_results.txt (WriteText)
	FormatCSV  = "csv"  // search_results.csv (WriteCSV)
	FormatJSON = "json" // JSON lines (WriteJSON)
)

// CSVName is the web UI's name of the CSV export.
const CSVName = "search_results.csv"

// FormatFor returns the export format of a file: format when given (txt,
// csv, json), else from the extension (.csv, .json/.jsonl/.ndjson, and
// the text format for any other). ok is false for an unknown format.
func FormatFor(path, format string) (f string, ok bool) {
	switch strings.ToLower(format) {
	case FormatText, FormatCSV, FormatJSON:
		return strings.ToLower(format), true
	case "":
	default:
		return "", false
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return FormatCSV, true
	case ".json", ".jsonl", ".ndjson":
		return FormatJSON, true
	}
	return FormatText, true
}

// WriteFormat writes hits in format f (FormatFor); fresh, when not nil,
// tells each file's freshness (the text format's opt-in trailing columns
// take it; CSV and JSON always carry it when given).
func WriteFormat(w io.Writer, f, word string, hits []search.Hit, fresh func(search.Hit) search.Freshness, textExtra bool) error {
	switch f {
	case FormatCSV:
		return WriteCSV(w, hits, fresh)
	case FormatJSON:
		return WriteJSON(w, hits, fresh)
	}
	if !textExtra {
		fresh = nil
	} else if fresh == nil {
		fresh = func(search.Hit) search.Freshness { return search.Fresh }
	}
	return WriteText(w, word, hits, fresh)
}

// WriteCSV writes hits as search_results.csv, for a spreadsheet: UTF-8
// with BOM, CRLF, RFC 4180 quoting (encoding/csv), a header
// `ファイル名,場所,種別,行,セル,更新日時,サイズ,状態,A,B,…` and one row per hit
// whose line is split into its cells (Excel cells unquoted, U+2028 as LF;
// other lines at TAB). 更新日時 and サイズ are the file as indexed (issue
// 18; both empty when the time is unknown), 状態 its freshness
// (Freshness.Message; empty when fresh is nil or the file is as indexed).
// A file-name hit has an empty place and line number. Every cell goes
// through SafeCell, so a cell that would start a formula in Excel is text
// (a leading ').
//
// Example:
//
//	ファイル名,場所,種別,行,セル,更新日時,サイズ,状態,A,B
//	営業\見積.xlsx,[シート]明細,セル,4,B4,2024/04/01 09:30:00,18432,,,りんご
func WriteCSV(w io.Writer, hits []search.Hit, fresh func(search.Hit) search.Freshness) error {
	io.WriteString(w, "\uFEFF")
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	cols := 0
	cells := make([][]string, len(hits))
	for i, h := range hits {
		cells[i] = lineCells(h)
		cols = max(cols, len(cells[i]))
	}
	head := []string{"ファイル名", "場所", "種別", "行", "セル", "更新日時", "サイズ", "状態"}
	for i := 0; i < cols; i++ {
		head = append(head, search.ColumnName(i))
	}
	cw.Write(head)
	for i, h := range hits {
		size := ""
		if !h.Modified.IsZero() {
			size = strconv.FormatInt(h.Size, 10)
		}
		state := ""
		if fresh != nil {
			state = fresh(h).Message()
		}
		rec := []string{h.Path(), search.PlaceLabel(h.FileKind, h.Place), h.Kind, strconv.Itoa(h.Row), h.Cell, FormatModified(h.Modified), size, state}
		if h.IsName() {
			rec[1], rec[3] = "", ""
		}
		rec = append(rec, cells[i]...)
		for j := range rec {
			rec[j] = SafeCell(rec[j])
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// lineCells splits a hit's line into its cells for the CSV.
func lineCells(h search.Hit) []string {
	var out []string
	if h.FileKind == extract.KindExcel && h.Kind == "セル" {
		for _, f := range search.Fields(h.Text) {
			out = append(out, UnquoteCell(h.Text[f[0]:f[1]]))
		}
		return out
	}
	for _, c := range strings.Split(h.Text, "\t") {
		out = append(out, strings.ReplaceAll(c, "\u2028", "\n"))
	}
	return out
}

// UnquoteCell turns an Excel-quoted cell (`"a""b"`) back into its text,
// with U+2028 as LF.
func UnquoteCell(c string) string {
	if len(c) >= 2 && c[0] == '"' && c[len(c)-1] == '"' {
		c = strings.ReplaceAll(c[1:len(c)-1], `""`, `"`)
	}
	return strings.ReplaceAll(c, "\u2028", "\n")
}

// JSONHit is one hit as a JSON line (CLI --json, the JSON export): the
// Hit's fields, its place label and its file's freshness ("deleted",
// "changed"; absent when as indexed or not checked).
//
//	{"index":"営業","path":"2024\\見積.xlsx","fileKind":"excel",…,
//	 "modified":"2024-04-01T09:30:00+09:00","size":18432,
//	 "fullPath":"C:\\共有\\営業\\2024\\見積.xlsx","placeLabel":"[シート]明細","freshness":"changed"}
type JSONHit struct {
	search.Hit
	PlaceLabel string           `json:"placeLabel,omitempty"`
	Freshness  search.Freshness `json:"freshness,omitempty"`
}

// NewJSONHit returns h as a JSON line's value.
func NewJSONHit(h search.Hit, fresh func(search.Hit) search.Freshness) JSONHit {
	j := JSONHit{Hit: h}
	if !h.IsName() {
		j.PlaceLabel = search.PlaceLabel(h.FileKind, h.Place)
	}
	if fresh != nil {
		j.Freshness = fresh(h)
	}
	return j
}

// WriteJSON writes hits as JSON lines (UTF-8 without BOM, LF, one JSONHit
// per line, HTML characters not escaped).
func WriteJSON(w io.Writer, hits []search.Hit, fresh func(search.Hit) search.Freshness) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, h := range hits {
		if err := enc.Encode(NewJSONHit(h, fresh)); err != nil {
			return err
		}
	}
	return nil
}
