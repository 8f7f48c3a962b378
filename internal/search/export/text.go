package export

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// TextName is the default name of the result file (reference/search.md
// §8; the earlier name was 検索結果.txt).
const TextName = "search_results.txt"

// Write writes hits in the format of search_results.txt, byte for
// byte as reference/search.md §8 says (WriteText with no extra columns).
func Write(w io.Writer, word string, hits []search.Hit) error {
	return WriteText(w, word, hits, nil)
}

// WriteText writes search_results.txt (reference/search.md §8):
//
//   - UTF-8 with BOM, CRLF line ends;
//   - line 1: `【検索文字列　<word>】 <N> 件` (U+3000 after 検索文字列);
//   - line 2: `ファイル名<TAB>場所<TAB>種別<TAB>行`, then `<TAB>A<TAB>B…`
//     with as many column letters as the widest hit line has cells
//     (counted as Excel splits them, see Fields);
//   - one line per hit: `<index>\<path><TAB><place><TAB><kind><TAB><line
//     number><TAB><line>`, the place as PlaceLabel gives it (no cell);
//   - a file-name hit (KindFileName) has an empty place and line number
//     and its path under the index as the line;
//     Excel lines as stored with U+2028 turned back into LF (the cells that
//     hold one are quoted already, so a paste into Excel keeps the cell);
//     other lines with only the cells that start with `"` wrapped in
//     quotes, inner `"` doubled;
//   - every cell that Excel would read as a formula (it evaluates `=…` in
//     a .txt opened directly, through its text import) neutralised with a
//     leading `'` (SafeCell; inside the quotes of a quoted cell); all other
//     bytes are the reference's;
//   - after the hits one empty line; with 0 hits the file holds only the
//     two header lines.
//
// Example (→ is TAB):
//
//	【検索文字列　りんご】 3 件
//	ファイル名→場所→種別→行→A→B→C→D
//	営業\2024\見積.xlsx→[シート]明細→セル→4→→→りんご→10
//	営業\報告.docx→3 ページ→本文→2→りんごの出荷が増えた
//	営業\メモ.txt→→本文→12→りんご 10 箱
//
// fresh, when not nil, opts into fumibako's two trailing columns (issue
// 31): after the letter columns, every line padded to them, `更新日時`
// (the file's modification time as indexed, FormatModified) and `状態`
// (Freshness.Message: 削除されています, インデックス作成後に変更されています,
// or empty). The reference's columns keep their places, so a paste into
// Excel still puts sheet column A in column 5.
func WriteText(w io.Writer, word string, hits []search.Hit, fresh func(search.Hit) search.Freshness) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("\uFEFF【検索文字列\u3000" + word + "】 " + strconv.Itoa(len(hits)) + " 件\r\n")
	cols := 0
	for _, h := range hits {
		cols = max(cols, len(search.Fields(h.Text)))
	}
	bw.WriteString("ファイル名\t場所\t種別\t行")
	for i := 0; i < cols; i++ {
		bw.WriteString("\t" + search.ColumnName(i))
	}
	if fresh != nil {
		bw.WriteString("\t更新日時\t状態")
	}
	bw.WriteString("\r\n")
	for _, h := range hits {
		bw.WriteString(SafeCell(h.Path()))
		bw.WriteByte('\t')
		if h.IsName() {
			bw.WriteString("\t" + h.Kind + "\t\t" + SafeCell(h.Text))
		} else {
			bw.WriteString(SafeCell(search.PlaceLabel(h.FileKind, h.Place)))
			bw.WriteByte('\t')
			bw.WriteString(h.Kind)
			bw.WriteByte('\t')
			bw.WriteString(strconv.Itoa(h.Row))
			bw.WriteByte('\t')
			bw.WriteString(exportLine(h))
		}
		if fresh != nil {
			for n := len(search.Fields(h.Text)); n < cols; n++ {
				bw.WriteByte('\t')
			}
			bw.WriteString("\t" + FormatModified(h.Modified) + "\t" + fresh(h).Message())
		}
		bw.WriteString("\r\n")
	}
	if len(hits) > 0 {
		bw.WriteString("\r\n")
	}
	return bw.Flush()
}

// ModifiedLayout is how a hit's modification time is written (export,
// terminal table): local time, as the ingest list writes 更新日時.
const ModifiedLayout = "2006/01/02 15:04:05"

// FormatModified formats a modification time with ModifiedLayout, "" for
// an unknown (zero) time.
func FormatModified(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format(ModifiedLayout)
}

// exportLine returns the line column of one hit, every cell through
// SafeCell.
func exportLine(h search.Hit) string {
	if h.FileKind == extract.KindExcel {
		var b strings.Builder
		for i, f := range search.Fields(h.Text) {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(safeQuotedField(h.Text[f[0]:f[1]]))
		}
		return strings.ReplaceAll(b.String(), "\u2028", "\n")
	}
	fields := strings.Split(h.Text, "\t")
	for i, f := range fields {
		f = SafeCell(f)
		fields[i] = f
		if strings.HasPrefix(f, `"`) {
			fields[i] = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
		}
	}
	return strings.Join(fields, "\t")
}
