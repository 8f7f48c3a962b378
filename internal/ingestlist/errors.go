package ingestlist

import "fmt"

// FormatError reports an ingest list in another form than the seed's (one
// that Excel or an editor saved again) that cannot be read in full. The
// list is left as it is: the indexer stops with this message unless asked
// to move the list aside and start over (fumibako index --reset-list).
// Error is the Japanese message shown to the user.
type FormatError struct {
	Path   string // the file (set by ReadFile)
	Line   int    // 1-based line number in the file
	Reason string // what is wrong, in Japanese
}

// MsgUnreadable is FormatError's message: file, line number, reason.
const MsgUnreadable = "取り込み一覧（%s）の %d 行目を読み取れません: %s"

func (e *FormatError) Error() string {
	path := e.Path
	if path == "" {
		path = "ingest_status.tsv"
	}
	return fmt.Sprintf(MsgUnreadable, path, e.Line, e.Reason)
}

// Reasons of a FormatError.
const (
	reasonEncoding = "%s として読めない文字があります（UTF-8・Shift_JIS・UTF-16 で、タブ区切りのテキストとして保存してください）"
	reasonNoHeader = "見出しの行（相対パス<TAB>更新日時<TAB>サイズ<TAB>状態<TAB>TSV数<TAB>取り込み日時<TAB>エラー<TAB>抽出版）が見つかりません（タブ区切りのテキストとして保存されていない可能性があります）"
	reasonColumns  = "列の数（%d）が見出しの列の数（%d）と合いません"
	reasonNumber   = "%s「%s」が数ではありません"
	reasonTime     = "%s「%s」を日時（yyyy/MM/dd HH:mm:ss）として読めません"
	reasonTooLong  = "行が長すぎます（1 MiB を超えています）"
)
