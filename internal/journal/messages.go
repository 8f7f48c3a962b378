package journal

import "fmt"

// InterruptLimit is the number of consecutive interrupted starts after which
// a job is taken for a file that hangs the reader: it becomes 失敗 and is
// not tried again until it changes or failures are retried (seed:
// $interruptLimit = 2).
const InterruptLimit = 2

// Texts of the interrupted-job handling (reference/indexing.md §17.2 and
// §17.4, the older 取り込み wording; seed ingest-list.ja.md, 次回の実行時).
const (
	// msgInterrupted is the ingest list's エラー of a job failed at the
	// limit: the seed's sentence with fumibako's own subject in the
	// parenthesis (DESIGN.md: the deadline message likewise names 取り込みの
	// プロセス where the seed's names the Office application).
	msgInterrupted = "取り込み中に %d 回続けて強制終了されたため、取り込みを中止しました（取り込みのプロセスが応答しなくなる可能性があります）"
	// logMovedLast is the log line of a job to redo that is moved last.
	logMovedLast = "前回、取り込み中に強制終了したファイルは最後に取り込みます: %s"
	// logSkippedInterrupted is the log line of a job failed at the limit.
	logSkippedInterrupted = "取り込み中に %d 回続けて強制終了したファイルは、失敗としてスキップします: %s"
)

// MsgInterrupted is the エラー text of a file whose count reached
// InterruptLimit (n is that count).
func MsgInterrupted(n int) string { return fmt.Sprintf(msgInterrupted, n) }

// LogMovedLast is the log line for a job to redo that is still a target and
// is moved to the end of the targets (relPath with `\` separators).
func LogMovedLast(relPath string) string { return fmt.Sprintf(logMovedLast, relPath) }

// LogSkippedInterrupted is the log line for a job whose count n reached
// InterruptLimit and that is failed instead of ingested.
func LogSkippedInterrupted(n int, relPath string) string {
	return fmt.Sprintf(logSkippedInterrupted, n, relPath)
}
