package worker

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
)

func TestMsgTimeout(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{10 * time.Minute, "10 分以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）"},
		{2 * time.Second, "2 秒以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）"},
		{1500 * time.Millisecond, "2 秒以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）"},
		{200 * time.Millisecond, "200 ミリ秒以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）"}, // issue 32
		{90 * time.Second, "90 秒以内に取り込みが終わらなかったため中止しました（取り込みのプロセスを強制終了しました）"},
	}
	for _, tt := range tests {
		if got := MsgTimeout(tt.d); got != tt.want {
			t.Errorf("MsgTimeout(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestFailedResponse(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		msg       string
		postponed bool
	}{
		{"extract error", &extract.Error{Msg: extract.MsgPassword}, extract.MsgPassword, false},
		{"wrapped extract error", fmt.Errorf("worker: %w", extract.Corrupt(errors.New("zip: bad"))), extract.MsgCorrupt, false},
		{"postponed", &extract.Postponed{Msg: extract.MsgNoLibreOffice}, extract.MsgNoLibreOffice, true},
		{"not found", fmt.Errorf("open /src/x: %w", fs.ErrNotExist), causeNotFound, false},
		{"denied", fmt.Errorf("open /src/x: %w", fs.ErrPermission), causeDenied, false},
		{"password text", errors.New("wrong Password given"), extract.MsgPassword, false},
		{"corrupt chain", fmt.Errorf("xls: read /src/x: %w", errors.New("malformed record")), extract.MsgCorrupt, false},
		{"other", errors.New("something odd"), msgUnexpected, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := failed(Response{ID: 1}, tt.err)
			if r.OK || r.Msg != tt.msg || r.Postponed != tt.postponed {
				t.Errorf("failed(%v) = %+v, want msg %q postponed %v", tt.err, r, tt.msg, tt.postponed)
			}
			// The English chain is the detail, for the log only.
			var xerr *extract.Error
			if want := tt.err.Error(); !errors.As(tt.err, &xerr) && r.Detail != want {
				t.Errorf("failed(%v).Detail = %q, want %q", tt.err, r.Detail, want)
			}
		})
	}
}
