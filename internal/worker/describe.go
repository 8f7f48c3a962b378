package worker

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// Causes of describeIngestError (reference/indexing.md §17.3, 取り込み
// wording).
const (
	causeNotFound = "ファイルが見つかりません（取り込み中に移動・削除・名前変更された可能性があります）"
	causeDenied   = "ファイルを読むアクセス権がありません"
	causeTooLong  = "パスが長すぎるため読めません"
	causeInUse    = "ほかのアプリ・利用者がファイルを使用中のため読めません（ファイルを閉じてから再取り込みしてください）"
	msgPassword   = "読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）"
)

// Describe maps an unexpected error to the per-file message
// "<cause>（詳細: <msg>）", or the message itself when no cause matches.
func Describe(err error) string {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	if msg == "" {
		return "原因のわからないエラーが発生しました"
	}
	low := strings.ToLower(msg)
	if strings.Contains(msg, "パスワード") || strings.Contains(low, "password") {
		return msgPassword
	}
	var cause string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		cause = causeNotFound
	case errors.Is(err, fs.ErrPermission):
		cause = causeDenied
	case errors.Is(err, syscall.ENAMETOOLONG):
		cause = causeTooLong
	case strings.Contains(low, "sharing violation") || strings.Contains(low, "lock violation"):
		cause = causeInUse
	default:
		return msg
	}
	return cause + "（詳細: " + msg + "）"
}
