package journal_test

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"
)

func TestMessages(t *testing.T) {
	tests := []struct{ got, want string }{
		{journal.MsgInterrupted(2), "取り込み中に 2 回続けて強制終了されたため、取り込みを中止しました（取り込みのプロセスが応答しなくなる可能性があります）"},
		{journal.LogMovedLast(`営業\2024\見積\A社.xlsx`), `前回、取り込み中に強制終了したファイルは最後に取り込みます: 営業\2024\見積\A社.xlsx`},
		{journal.LogSkippedInterrupted(2, `営業\重い.xlsx`), `取り込み中に 2 回続けて強制終了したファイルは、失敗としてスキップします: 営業\重い.xlsx`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("message = %q, want %q", tt.got, tt.want)
		}
		// fumibako starts no Office application (DESIGN.md).
		if strings.Contains(tt.got, "Office") {
			t.Errorf("message %q speaks of Office", tt.got)
		}
	}
	if journal.InterruptLimit != 2 || journal.FormatVersion != "2" {
		t.Errorf("InterruptLimit, FormatVersion = %d, %q; want 2, \"2\"", journal.InterruptLimit, journal.FormatVersion)
	}
}
