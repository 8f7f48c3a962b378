package search

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// Hit is one matching line (one Excel row, one paragraph, one shape or
// comment, one line of a text file; reference/search.md §3).
type Hit struct {
	// Index is the index name; RelPath the file's path under the index
	// root with `\` separators (`2024\見積.xlsx`).
	Index   string `json:"index"`
	RelPath string `json:"path"`
	// FileKind is the kind of file (excel, word, powerpoint, pdf, text,
	// image).
	FileKind extract.Kind `json:"fileKind"`
	// Place is the stored place name (`売上`, `売上[図形]`, `ページ003`).
	Place string `json:"place"`
	// Label is the hit's place label (`[シート]売上!D5`, `3 ページ`,
	// `3 ページ（目安）`, `スライド 2`, `12 行目`; reference/search.md §6.1).
	Label string `json:"label"`
	// PageEstimate marks a Word page whose number is an estimate (the
	// document recorded no page breaks; the place ends in （目安）).
	PageEstimate bool `json:"pageEstimate,omitempty"`
	// OCR marks text read by OCR from an image (a scanned page, an image
	// file; the place ends in （OCR）, issue 29).
	OCR bool `json:"ocr,omitempty"`
	// Kind is the 種別 column: セル, 図形, コメント, ヘッダー・フッター,
	// 本文, ノート, 埋め込み.
	Kind string `json:"kind"`
	// Row is the line number within the place (Excel: the sheet row); for
	// an Excel shape or comment with a cell, that cell's row (a comment
	// on B14 is row 14, issue 32), as the export and the JSON say.
	Row int `json:"row"`
	// Line is the line number within the place, what a preview asks for
	// (Row but for Excel shapes and comments).
	Line int `json:"line"`
	// Cell is the Excel cell of the first match (`D5`), or of the shape
	// or comment; empty elsewhere. MoreCells counts the other matching
	// cells of the row.
	Cell      string `json:"cell,omitempty"`
	MoreCells int    `json:"moreCells,omitempty"`
	// Text is the line as stored (TAB between cells, U+2028 for an
	// in-cell newline), cut around its first match when it is longer than
	// 1,000 characters (HitLineMaxChars), the cut ends marked with `…`.
	// A line over extract.LineMaxRunes was stored in pieces: Text is the
	// piece that matched.
	Text string `json:"text"`
	// Matches are the matched byte ranges [start, end) in Text, ascending
	// and not overlapping (a match that the cut cuts is cut with it).
	Matches [][2]int `json:"matches"`
	// Modified and Size are the file's modification time and size as
	// indexed (the crawl's); Modified is zero when the index does not know
	// it. CheckFile compares them with the file on disk.
	Modified time.Time `json:"modified,omitzero"`
	Size     int64     `json:"size"`
	// FullPath is the file's path on this computer, in the OS's own form
	// (`C:\営業\見積.xlsx`, `\\fs01\share\…`, `/srv/営業/…`): the index's
	// source folder (Index.Source) joined with RelPath; absent when no
	// source folder is known (issue 31). Run fills it.
	FullPath string `json:"fullPath,omitempty"`
}

// KindFileName is the 種別 of a hit on the file's name (or its folders
// under the index): Place and Label are empty, Row 0, Text the path under the index
// (RelPath) and Matches the matched ranges in it. Such a hit comes before
// the content hits of its file.
const KindFileName = "ファイル名"

// IsName reports whether h is a file-name hit.
func (h Hit) IsName() bool { return h.Kind == KindFileName }

// Path returns `<index>\<path>` (the export's file column).
func (h Hit) Path() string { return h.Index + `\` + h.RelPath }

// A hit line is shortened (reference/search.md §3: 1,000 characters
// starting 200 before the match). The reference shortens text-file lines
// only; every line is shortened here (issue 36), so that what a hit
// carries (the table, TSV, --json, the export, the web's stream) is
// bounded by these constants and never by a line: an Excel row or a PDF
// page line can be as long as a text line.
const (
	HitLineMaxChars         = 1000
	HitLineBeforeMatchChars = 200
)

// continuationMark starts a continuation line (extract.ContinuationMark).
var continuationMark = []byte(extract.ContinuationMark)

// dropMark takes a continuation line's mark off Text and its matches and
// reports whether it had one.
func (h *Hit) dropMark() bool {
	if !extract.IsContinuation(h.Text) {
		return false
	}
	n := len(extract.ContinuationMark)
	h.Text = h.Text[n:]
	for i := range h.Matches {
		h.Matches[i][0] = max(0, h.Matches[i][0]-n)
		h.Matches[i][1] = max(0, h.Matches[i][1]-n)
	}
	return true
}

// sheetSpaces turns TABs and newlines in sheet names into spaces.
var sheetSpaces = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ", "\u2028", " ")

// splitKind is content.SplitKind with a fast path for names without a
// bracketed kind.
func splitKind(place string) (base, kind string) {
	if !strings.HasSuffix(place, "]") {
		return place, ""
	}
	return content.SplitKind(place)
}

// numbered parses `<prefix>NNN<suffix>` (NNN digits) and returns the
// number without leading zeros.
func numbered(s, prefix, suffix string) (string, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return "", false
	}
	if rest, ok = strings.CutSuffix(rest, suffix); !ok || rest == "" {
		return "", false
	}
	for _, c := range []byte(rest) {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	if n := strings.TrimLeft(rest, "0"); n != "" {
		return n, true
	}
	return "0", true
}

var reCellPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$`) })

// placeKind returns the 種別 of a place of a file of kind fk.
func placeKind(fk extract.Kind, place string) string {
	base, obj := splitKind(place)
	switch {
	case obj == extract.ObjectShape, obj == extract.ObjectComment, obj == extract.ObjectHeaderFooter, obj == extract.ObjectForm:
		return obj
	case strings.HasPrefix(obj, extract.ObjectEmbed):
		return extract.ObjectEmbed
	case fk == extract.KindExcel:
		return "セル"
	}
	if _, ok := numbered(base, extract.SlidePrefix, extract.NotesSuffix); ok {
		return "ノート"
	}
	return "本文"
}

// cellPrefixed reports whether lines of a place are `<cell><TAB><text>`
// (Excel shapes and comments): a match counts only after the first TAB.
func cellPrefixed(fk extract.Kind, place string) bool {
	if fk != extract.KindExcel {
		return false
	}
	_, obj := splitKind(place)
	return obj == extract.ObjectShape || obj == extract.ObjectComment
}

// The words of page and slide labels (`3 ページ`, `スライド 2`).
const (
	pageLabel  = " ページ"
	slideLabel = "スライド "
	// imagePageLabel follows a multi-page image's page number:
	// `2 ページ目の画像（OCR）` (画像002（OCR）).
	imagePageLabel = " ページ目の" + extract.ImagePrefix
)

// PlaceLabel returns the label of a place without a cell (group headers,
// export; reference/search.md §6.2): a sheet `[シート]売上`, a page whose
// number the document records `3 ページ` (ページ003), an estimated Word
// page `3 ページ（目安）` (ページ003（目安）), a slide `スライド 2`, a hidden
// slide `スライド 2（非表示）`, a slide's notes `スライド 2`
// (スライド002_ノート, kind ノート), text read by OCR `3 ページ（OCR）`
// (ページ003（OCR）) and `2 ページ目の画像（OCR）` (画像002（OCR）), a hidden sheet
// `[シート]原価（非表示）` (原価[非表示]), other places as they are
// (`ヘッダー・フッター`, `脚注`, `画像（OCR）`), and "" for a text file. A PDF
// page's form fields keep their kind in the label, `3 ページ[フォーム]`
// (ページ003[フォーム], issue 33): the values typed into a form are told
// from the page's printed text.
func PlaceLabel(fk extract.Kind, place string) string {
	base, obj := splitKind(place)
	if obj == extract.ObjectForm {
		return baseLabel(fk, base) + "[" + obj + "]"
	}
	return baseLabel(fk, base)
}

// baseLabel is PlaceLabel of a place's base name.
func baseLabel(fk extract.Kind, base string) string {
	switch fk {
	case extract.KindExcel:
		// A hidden sheet read on request (`原価[非表示]`, issue 31) is
		// labelled as hidden slides are: `[シート]原価（非表示）`.
		if name, ok := strings.CutSuffix(base, extract.HiddenSheetSuffix); ok {
			return "[シート]" + sheetSpaces.Replace(name) + extract.HiddenSuffix
		}
		return "[シート]" + sheetSpaces.Replace(base)
	case extract.KindText:
		if base == extract.PlaceText {
			return ""
		}
		// A PDF under a text name is read as a PDF: its places keep
		// their labels (issue 36 item 8).
	}
	if n, ok := numbered(base, extract.PagePrefix, ""); ok {
		return n + pageLabel
	}
	if n, ok := numbered(base, extract.PagePrefix, extract.EstimateSuffix); ok {
		return n + pageLabel + extract.EstimateSuffix
	}
	if n, ok := numbered(base, extract.PagePrefix, extract.OCRSuffix); ok {
		return n + pageLabel + extract.OCRSuffix
	}
	if n, ok := numbered(base, extract.ImagePrefix, extract.OCRSuffix); ok {
		return n + imagePageLabel + extract.OCRSuffix
	}
	if n, ok := numbered(base, extract.SlidePrefix, ""); ok {
		return slideLabel + n
	}
	if n, ok := numbered(base, extract.SlidePrefix, extract.HiddenSuffix); ok {
		return slideLabel + n + extract.HiddenSuffix
	}
	if n, ok := numbered(base, extract.SlidePrefix, extract.NotesSuffix); ok {
		return slideLabel + n
	}
	return base
}

// label returns the per-hit label (reference/search.md §6.1); pl is
// PlaceLabel(h.FileKind, h.Place). Excel adds the cell: `[シート]売上!B12`,
// `[シート]売上!B12 ほか 2` (two more matching cells in the row),
// `[シート]売上 12 行目` (column unknown); a text file gives `12 行目`
// (a PDF named as one its page); other files the place label.
func (h *Hit) label(pl string) string {
	switch {
	case h.FileKind == extract.KindText && pl == "":
		return strconv.Itoa(h.Row) + " 行目"
	case h.FileKind != extract.KindExcel:
		return pl
	case h.Kind == "セル" && h.Cell == "":
		return pl + " " + strconv.Itoa(h.Row) + " 行目"
	case h.Cell != "" && h.MoreCells > 0:
		return pl + "!" + h.Cell + " ほか " + strconv.Itoa(h.MoreCells)
	case h.Cell != "":
		return pl + "!" + h.Cell
	}
	return pl
}

// ColumnName returns the Excel column letters of a 0-based column.
func ColumnName(i int) string {
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append([]byte{byte('A' + (i-1)%26)}, b...)
	}
	return string(b)
}

// Fields splits an Excel line into its cells' byte ranges the way Excel
// reads its text export: TAB separates cells, a cell that starts with `"`
// runs to its closing `"` (a doubled `""` stays inside). A leading empty
// cell counts.
func Fields(line string) [][2]int {
	var out [][2]int
	forFields(line, func(_, start, end int, _ bool) bool {
		out = append(out, [2]int{start, end})
		return true
	})
	return out
}

// setCells fills Cell and MoreCells of an Excel hit from its matches.
func (h *Hit) setCells() {
	if h.FileKind != extract.KindExcel || len(h.Matches) == 0 {
		return
	}
	switch h.Kind {
	case "図形", "コメント":
		if i := strings.IndexByte(h.Text, '\t'); i > 0 {
			if m := reCellPrefix().FindStringSubmatch(h.Text[:i]); m != nil {
				h.Cell = strings.ToUpper(m[1]) + m[2]
				if row, err := strconv.Atoi(m[2]); err == nil {
					h.Row = row
				}
			}
		}
		return
	case "セル":
	default:
		return
	}
	// Walk the cells once; matches are ascending.
	first, cells, lastCell := -1, 0, -1
	k := 0
	forFields(h.Text, func(i, start, end int, final bool) bool {
		for k < len(h.Matches) && (h.Matches[k][0] < end || final) {
			m := h.Matches[k]
			if m[0] < start {
				k++
				continue
			}
			if k == 0 {
				if m[1] > end {
					return false // the first match spans cells: column unknown
				}
				first = i
			}
			if i != lastCell {
				cells++
				lastCell = i
			}
			k++
		}
		return k < len(h.Matches)
	})
	if first < 0 {
		return
	}
	h.Cell = ColumnName(first) + strconv.Itoa(h.Row)
	h.MoreCells = cells - 1
}

// forFields calls fn for each cell of an Excel line (see Fields) with its
// index and byte range, until fn returns false.
func forFields(line string, fn func(i, start, end int, final bool) bool) {
	i := 0
	for n := 0; ; n++ {
		start := i
		if i < len(line) && line[i] == '"' {
			i++
			for i < len(line) {
				if line[i] == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
		}
		j := strings.IndexByte(line[i:], '\t')
		if j < 0 {
			fn(n, start, len(line), true)
			return
		}
		if !fn(n, start, i+j, false) {
			return
		}
		i += j + 1
	}
}

// shorten cuts a line longer than HitLineMaxChars characters to that
// many, starting HitLineBeforeMatchChars before its first match (from
// the start when it has none, and earlier when the line ends first), the
// cut ends marked with `…`; Matches are moved into the cut text and those
// outside it dropped.
func (h *Hit) shorten() {
	if len(h.Text) <= HitLineMaxChars || utf8.RuneCountInString(h.Text) <= HitLineMaxChars {
		return
	}
	at := 0
	if len(h.Matches) > 0 {
		at = h.Matches[0][0]
	}
	startByte := runesBack(h.Text, at, HitLineBeforeMatchChars)
	endByte, short := runesOn(h.Text, startByte, HitLineMaxChars)
	if short > 0 {
		// The line ends first: take what is missing before.
		startByte = runesBack(h.Text, startByte, short)
	}
	prefix, suffix := "", ""
	if startByte > 0 {
		prefix = "…"
	}
	if endByte < len(h.Text) {
		suffix = "…"
	}
	shift := len(prefix) - startByte
	var ms [][2]int
	for _, m := range h.Matches {
		s, e := max(m[0], startByte), min(m[1], endByte)
		if s < e {
			ms = append(ms, [2]int{s + shift, e + shift})
		}
	}
	h.Text = prefix + h.Text[startByte:endByte] + suffix
	h.Matches = ms
}

// runesBack returns the byte offset n runes before byte at of s (0 when
// s starts first).
func runesBack(s string, at, n int) int {
	for ; n > 0 && at > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:at])
		at -= size
	}
	return at
}

// runesOn returns the byte offset n runes after byte at of s, and how many
// of the n runes s did not have.
func runesOn(s string, at, n int) (end, short int) {
	for ; n > 0 && at < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return at, n
}

// IsOCR reports whether a place holds text read by OCR (ページNNN（OCR）,
// 画像（OCR）, 画像NNN（OCR）; issue 29) in a file of kind fk: a sheet
// whose name ends in （OCR） is still a sheet.
func IsOCR(fk extract.Kind, place string) bool {
	if fk == extract.KindExcel {
		return false
	}
	base, _ := splitKind(place)
	return strings.HasSuffix(base, extract.OCRSuffix)
}

// IsPageEstimate reports whether a place is a Word page whose number is
// an estimate (ページNNN（目安）, with or without an object kind).
func IsPageEstimate(place string) bool {
	base, _ := splitKind(place)
	_, ok := numbered(base, extract.PagePrefix, extract.EstimateSuffix)
	return ok
}
