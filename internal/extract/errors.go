package extract

import (
	"archive/zip"
	"errors"
	"io"
)

// Error is a per-file failure: Msg is the user-facing Japanese text that
// becomes the ingest list's エラー column and the web UI's failure list,
// Cause the English chain for indexing_log.txt. Msg is one of the fixed
// messages below, at most followed by a fixed Japanese detail: never a
// path, a package name or an English error text (issue 16, "one rule for
// the detail of a failure"); Corrupt is how a parse error gets one. Log holds extra lines for indexing_log.txt only (for
// example which ZIP part broke a size limit: the recorded message stays
// generic, reference/extraction.md §13).
type Error struct {
	Msg   string
	Cause error
	Log   []string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Cause }

// Postponed marks a file that cannot be ingested now but will be by a later
// run without --retry-failed: its row stays 未取り込み with Msg in エラー
// (seed: Postponed; DESIGN.md: LibreOffice missing).
type Postponed struct{ Msg string }

func (e *Postponed) Error() string { return e.Msg }

// Unavailable marks a file that was not read because the reader's own
// engine could not be prepared on this machine (the PDF engine's compiled
// code could be neither loaded nor rebuilt, issue 36): the run's problem,
// never the file's. The file stays 未取り込み without a reason, so any later
// run reads it; the run shows Msg once. Cause is the English chain.
type Unavailable struct {
	Msg   string
	Cause error
}

func (e *Unavailable) Error() string { return e.Msg }
func (e *Unavailable) Unwrap() error { return e.Cause }

// Fixed per-file messages (reference/indexing.md §17.2, 取り込み wording per
// DESIGN.md "Wording").
const (
	MsgTooLarge       = "ファイルサイズが大きすぎるため取り込めません。"
	MsgNotText        = "テキストファイルではないため取り込めません。"
	MsgPassword       = "読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）"
	MsgRights         = "IRM・秘密度ラベルで暗号化されているため取り込めません。"
	MsgEncryptedOrBad = "暗号化されているか壊れているため取り込めません。"
	MsgCorrupt        = "ファイルが壊れているか、拡張子と中身の形式が一致していません"
	// MsgNoWordBody and MsgNoPresentation: the reference named the missing
	// package part (word/document.xml), which tells a user nothing; the
	// part is in the English cause (issue 32).
	MsgNoWordBody     = "Word文書の本文が見つかりません（ファイルが壊れているか、Word文書ではありません）。"
	MsgNoPresentation = "PowerPointのプレゼンテーション情報が見つかりません（ファイルが壊れているか、PowerPointのファイルではありません）。"
	MsgNotPowerPoint  = "ファイルが壊れているか、PowerPointのファイルではありません（新形式（ZIP）でも旧形式でもない内容です）。"
	MsgOutOfMemory    = "シート・文書が大きすぎて取り込めません（メモリが不足しました）"
	MsgNoLibreOffice  = "LibreOffice が見つからないため取り込めません（LibreOffice を入れると次のインデックス作成で取り込みます）"
	// MsgTextTooLarge: the file's text is over Limits.TextBudget
	// (DefaultTextBudget, 128 MiB; issue 36).
	MsgTextTooLarge = "文書の文字が多すぎるため取り込めません（1 ファイルの文字は 128 MB まで）"
)

// Fail returns an *Error with a fixed message and an English cause.
func Fail(msg string, cause error) error { return &Error{Msg: msg, Cause: cause} }

// Short Japanese details of the corrupt-file message, the only ones shown
// (Corrupt); the English cause goes to the log.
const (
	DetailTruncated = "（詳細: ファイルが途中で切れています）"
	DetailNotZip    = "（詳細: 中身が ZIP 形式ではありません）"
	DetailZipBroken = "（詳細: ZIP の形式が壊れています）"
)

// ErrNotZip is in the chain of a failure of a file that should be a ZIP
// package and is not (ooxml.ErrNotZip): a caller that can convert legacy
// files detects it with errors.Is.
var ErrNotZip = errors.New("extract: not a ZIP package")

// Corrupt wraps a parse failure as the reference's corrupt-file cause
// (describeIngestError, reference/indexing.md §17.3). The user sees
// MsgCorrupt with at most one of the fixed details above, told from the
// cause's chain: a file that ends early (io.ErrUnexpectedEOF), one that is
// no ZIP (ErrNotZip), a ZIP whose directory or headers are broken
// (zip.ErrFormat; a cut-off download among them). The cause itself, with its paths and
// package prefixes, stays in Cause for the log.
func Corrupt(cause error) error {
	return &Error{Msg: MsgCorrupt + corruptDetail(cause), Cause: cause}
}

func corruptDetail(cause error) string {
	switch {
	case errors.Is(cause, io.ErrUnexpectedEOF):
		return DetailTruncated
	case errors.Is(cause, ErrNotZip):
		return DetailNotZip
	case errors.Is(cause, zip.ErrFormat):
		return DetailZipBroken
	}
	return ""
}

// ErrUnsupported is returned by Extract for an extension no reader handles.
var ErrUnsupported = errors.New("extract: unsupported file type")
