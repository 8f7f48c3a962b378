package ingestlist

import (
	"fmt"
	"strings"
	"unicode"
)

// Skip is one line the reader passed over (issue 36): Rejected, Ignored,
// or a last line cut by a crash. The indexer logs each with its line
// number, so no row disappears without a trace.
type Skip struct {
	Line   int    // 1-based line number in the file
	Reason string // why, in Japanese
}

// maxSkips bounds List.Skips: a file of garbage is told by its first lines
// and a count (List.MoreSkips), not held line by line.
const maxSkips = 100

// Reasons of a Skip (besides the FormatError reasons that also apply).
const (
	reasonRejected = "インデックス名・パスが正しくありません（空の名前・. や ..・ファイル名に使えない文字）"
	reasonControl  = "インデックス名・パスに制御文字（NUL など）が入っています"
	reasonStray    = "見出しの行より前にある、クロール対象フォルダの行でも見出しでもない行です"
	reasonFolder   = "クロール対象フォルダの行のインデックス名が正しくありません"
	reasonCut      = "最後の行が改行で終わっていません（書き込みの途中で止まった行です）"
)

// skip records that line lineNo was passed over for reason.
func (l *List) skip(lineNo int, reason string) {
	if len(l.Skips) < maxSkips {
		l.Skips = append(l.Skips, Skip{Line: lineNo, Reason: reason})
	} else {
		l.MoreSkips++
	}
}

// rejectReason tells a path with a control character (a NUL written into
// the file) from one that breaks the name rules otherwise.
func rejectReason(rel string) string {
	if strings.ContainsFunc(rel, unicode.IsControl) {
		return reasonControl
	}
	return reasonRejected
}

// String is the skip as the indexer logs it.
func (s Skip) String() string {
	return fmt.Sprintf(MsgSkipped, s.Line, s.Reason)
}

// MsgSkipped is the log line of one skipped line: line number, reason.
const MsgSkipped = "取り込み一覧の %d 行目を読み飛ばしました: %s"
