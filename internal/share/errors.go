package share

import "fmt"

// Messages of export and import (reference/gui.md §2.6 for the dialog's
// choices; the wording follows the seed's 取り込み family).
const (
	MsgNotFound        = "インデックス「%s」はありません。"
	MsgExportBusy      = "インデックス作成の実行中はエクスポートできません。インデックス作成が終わってから、もう一度実行してください。"
	MsgImportBusy      = "インデックス作成の実行中はインポートできません。インデックス作成が終わってから、もう一度実行してください。"
	MsgUnpublished     = "インデックス「%s」には、取り込みが途中のファイルが残っているためエクスポートできません。fumibako index（インデックス作成）を実行してから、もう一度エクスポートしてください。"
	MsgExportName      = "インデックス「%s」に Windows で使えない名前のフォルダ（%s）があるため、エクスポートできません。"
	MsgNotZip          = "%s は zip ファイルではないか、壊れているため取り込めません（途中で切れている可能性があります）。"
	MsgNotArchive      = "%s は fumibako のインデックスの zip ファイルではありません（目録 fumibako-index.json がありません）。"
	MsgUnsafePath      = "zip ファイルに、フォルダの外を指す名前（%s）があるため取り込めません。"
	MsgBadName         = "zip ファイルに、Windows で使えない名前か、インデックスに無いはずの名前（%s）があるため取り込めません。"
	MsgDuplicate       = "zip ファイルに、大文字と小文字だけが違う同じ名前（%s）が 2 つあるため取り込めません。"
	MsgManifestLarge   = "zip ファイルの目録（fumibako-index.json）が大きすぎるため取り込めません（%d MB。上限 64 MB）。"
	MsgManifestBroken  = "zip ファイルの目録（fumibako-index.json）を読み取れないため取り込めません: %s"
	MsgNewerVersion    = "この zip ファイルは新しい版の fumibako（%s）で作られたため取り込めません（形式の版 %d。この fumibako が読めるのは版 %d まで）。fumibako を新しくしてから取り込んでください。"
	MsgUnlisted        = "zip ファイルに、目録に無いファイル（%s）があるため取り込めません。"
	MsgMissing         = "zip ファイルに、目録にあるファイル（%s）が無いため取り込めません。"
	MsgChanged         = "zip ファイルの %s が目録と一致しないため取り込めません（ファイルが壊れているか、書き換えられています）。"
	MsgBadRows         = "zip ファイルの取り込み一覧（ingest_status.tsv）の %d 行目を読み取れないため取り込めません。"
	MsgNoSpace         = "作業フォルダのディスクの空きが足りないため取り込めません（必要: %s、空き: %s。インデックスの大きさに 1 GB を足した空きが要ります）。"
	MsgListForeign     = "取り込み一覧が Excel などで別の形式に保存し直されているため、インポートできません。先に fumibako index（インデックス作成）を実行して一覧を元の形式に戻してから、もう一度インポートしてください。"
	MsgClash           = "インデックス「%s」は既にあります。"
	MsgOverwriteRoot   = "インデックス「%s」は登録されているインデックスのため、上書きできません。別の名前で取り込むか、先に fumibako folder remove %s で登録を外してインデックス作成を実行してください。"
	MsgRecovered       = "前回中断したインポート（インデックス「%s」）を最後まで行いました。"
	MsgStagingRemoved  = "前回中断したインポートの作業用フォルダを片付けました。"
	MsgRecoverFailed   = "前回中断したインポート（インデックス「%s」）を完了できませんでした。"
	MsgManifestUnknown = "前回中断したインポートの記録（%s）を読み取れないため、別の名前に移しました。"
)

// RefusedError is an export or import that was refused: a zip that fails
// a check, an index that cannot be exported now. Msg is the Japanese text
// for the user; Unwrap gives the English cause where there is one.
type RefusedError struct {
	Msg   string
	Cause error
}

func (e *RefusedError) Error() string { return e.Msg }
func (e *RefusedError) Unwrap() error { return e.Cause }

func refused(cause error, format string, a ...any) error {
	return &RefusedError{Msg: fmt.Sprintf(format, a...), Cause: cause}
}

// ClashError is an import whose index name is in use: the caller offers
// another name, the overwrite, or cancel (reference/gui.md §2.6).
type ClashError struct {
	Name string
}

func (e *ClashError) Error() string { return fmt.Sprintf(MsgClash, e.Name) }

// sizeText shows a byte count the way the messages do (MB or GB).
func sizeText(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MB", (n+(1<<20)-1)>>20)
}
