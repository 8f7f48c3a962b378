package worker

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// Causes of describeIngestError (reference/indexing.md §17.3, 取り込み
// wording).
const (
	causeNotFound = "ファイルが見つかりません（取り込み中に移動・削除・名前変更された可能性があります）"
	causeDenied   = "ファイルを読むアクセス権がありません"
	causeTooLong  = "パスが長すぎるため読めません"
	causeInUse    = "ほかのアプリ・利用者がファイルを使用中のため読めません（ファイルを閉じてから再取り込みしてください）"
	msgPassword   = "読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）"
	// msgUnexpected is the message of an error no rule knows: its English
	// text is in indexing_log.txt (the reference returned the text itself,
	// which shows paths and Go error chains; issue 16).
	msgUnexpected = "取り込み中に予期しないエラーが発生しました（詳しい内容は indexing_log.txt にあります）"
)

// Describe is the one mapping from a file's error to the message the
// ingest list's エラー column, the web UI and the run's summary show
// (describeIngestError, reference/indexing.md §17.3), under issue 16's
// rule: Japanese, at most a short Japanese detail, never an absolute path,
// a Go package name or an English error chain. The English chain
// (err.Error()) goes to indexing_log.txt only, as the response's Detail.
//
//   - a reader's *extract.Error, *extract.Postponed, *extract.Unavailable
//     (the run's message) or a place name's
//     *content.NameError: its fixed message;
//   - a message naming a password: the password message alone;
//   - not found, access denied, path too long, file in use: the cause;
//   - a parse error the readers did not map (corrupt, invalid, malformed,
//     unexpected EOF, XML): the corrupt-file message;
//   - anything else: msgUnexpected.
func Describe(err error) string {
	var post *extract.Postponed
	var xerr *extract.Error
	var nerr *content.NameError
	var unav *extract.Unavailable
	switch {
	case errors.As(err, &post):
		return post.Msg
	case errors.As(err, &unav):
		return unav.Msg
	case errors.As(err, &xerr):
		return xerr.Msg
	case errors.As(err, &nerr):
		return nerr.Msg
	}
	low := strings.ToLower(err.Error())
	switch {
	case strings.Contains(low, "パスワード") || strings.Contains(low, "password"):
		return msgPassword
	case errors.Is(err, fs.ErrNotExist):
		return causeNotFound
	case errors.Is(err, fs.ErrPermission):
		return causeDenied
	case errors.Is(err, syscall.ENAMETOOLONG):
		return causeTooLong
	case strings.Contains(low, "sharing violation") || strings.Contains(low, "lock violation"):
		return causeInUse
	}
	for _, w := range corruptWords {
		if strings.Contains(low, w) {
			return extract.MsgCorrupt
		}
	}
	return msgUnexpected
}

// corruptWords mark an English error text as a damaged file's
// (reference/indexing.md §17.3: invalid data or XML error, corrupt, file
// format).
var corruptWords = []string{"corrupt", "file format", "invalid", "malformed", "unexpected eof", "xml"}
