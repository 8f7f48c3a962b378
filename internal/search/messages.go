package search

import (
	"fmt"
	"strconv"
)

// User-facing texts. Where reference/ gives a newer 更新 wording and an
// [older: …] 取り込み one, the older is used (DESIGN.md "Wording").
const (
	// MsgCut is shown when the cap is reached (reference/gui.md §4.4,
	// older wording); %s is the cap with thousands separators.
	MsgCut = "%s 件を超えたため、ここで打ち切りました。この先のファイルは検索していないため、ワード・対象ファイル・検索対象で絞り込んでください。"
	// MsgNoIndexYet is shown instead of searching when no index has been
	// made yet (the web UI's empty result says the same; issue 31).
	MsgNoIndexYet = "インデックスがありません。インデックス管理でフォルダを追加して、インデックスを作成してください。"
	// MsgNotFound is shown for 0 hits (reference/gui.md §4.4).
	MsgNotFound = "見つかりませんでした。"
	// MsgDone is the counts line (reference/gui.md §4.4, older wording).
	MsgDone = "該当 %d 件（%d ファイル） ・ %s 秒"
	// MsgCancelled is shown when a search is stopped (reference/gui.md §4.3).
	MsgCancelled = "中止しました（%d 件まで表示）"
	// MsgDuringIndexing is shown while an indexing run holds the workspace
	// (reference/gui.md §4.4, older wording).
	MsgDuringIndexing = "インデックス作成中のため、作成途中のインデックスを検索しています。"
	// MsgExported and MsgExportLocked are the export statuses
	// (reference/search.md §8); %s is the file name.
	MsgExported     = "%s に出力しました（%d 件）"
	MsgExportLocked = "%s に書き込めません。開いているアプリを閉じてから、もう一度出力してください。"

	// Query errors (fumibako's own; the reference's GUI refuses to search).
	MsgEmptyQuery   = "検索するワードを入力してください。"
	MsgOnlyExcluded = "除外するワード（-ワード）のほかに、探すワードを入力してください。"
	MsgBadRegex     = "正規表現として不正です（%d 番目のワード「%s」の %d 文字目「%s」: %s）。"
	MsgBadRegexEnd  = "正規表現として不正です（%d 番目のワード「%s」の終わり: %s）。"
	MsgBadRegexWord = "正規表現として不正です（%d 番目のワード「%s」）。"
	MsgBadKind      = "種類「%s」はありません（excel・word・powerpoint・pdf・text・image から選んでください）。"
	MsgNoIndex      = "インデックス「%s」はありません。"
	MsgBadMax       = "件数の上限「%d」は使えません（0 で上限なし）。"
	// MsgDidYouMean follows a name that is not there when one is near it
	// (textfold.Nearest); the CLI uses it for commands and flags too.
	MsgDidYouMean = "「%s」のことですか？"
	// Query limits (limits.go).
	MsgQueryTooLong = "検索する文字列が長すぎます（全部で %s バイトまで。日本語は 1 文字 3 バイトです）。短くしてください。"
	MsgNamesTooLong = "対象ファイルの指定が長すぎます（%s バイトまで）。短くしてください。"
	MsgTooManyWords = "検索するワードが多すぎます（%d 個まで。同じワードは 1 個に数えます）。ワードを減らしてください。"

	// Folders that a search could not read.
	MsgNeedsRebuild = "古い形式のインデックスのため検索できませんでした（次のインデックス作成で作り直します）: %s"
	MsgBrokenPart   = "読めないインデックスがあったため、その部分は検索していません（次のインデックス作成で作り直します）: %s"
	// MsgCutAt and MsgCutAtFile say where a capped search stopped: the
	// last hit's file and place, or only its file for a file-name hit,
	// which has no place (issue 32: it printed a blank place).
	MsgCutAt     = "（%s の %s まで検索しました）"
	MsgCutAtFile = "（%s まで検索しました）"
)

// CutAtMessage says where a capped search stopped (MsgCutAt), or "" when
// it was not capped.
func CutAtMessage(st Stats) string {
	switch {
	case !st.Truncated || st.CutAt == "":
		return ""
	case st.CutLabel == "":
		return fmt.Sprintf(MsgCutAtFile, st.CutAt)
	}
	return fmt.Sprintf(MsgCutAt, st.CutAt, st.CutLabel)
}

// CutMessage returns MsgCut for a cap.
func CutMessage(max int) string { return fmt.Sprintf(MsgCut, Thousands(max)) }

// Thousands formats n with comma separators (10,000).
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
