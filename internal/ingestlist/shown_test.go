package ingestlist_test

import (
	"bytes"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

func TestShownError(t *testing.T) {
	const corrupt = "ファイルが壊れているか、拡張子と中身の形式が一致していません"
	tests := []struct{ in, want string }{
		{corrupt + "（詳細: /srv/営業/empty.xlsx: extract: not a ZIP package）", corrupt},
		{corrupt + "（詳細: read zip directory: zip: not a valid zip file）", corrupt},
		{corrupt + "（詳細: CLX missing）", corrupt},
		{"読み取りパスワードが設定されているため開けません（詳細: Word FIB fEncrypted）", "読み取りパスワードが設定されているため開けません"},
		{"取り込みのプロセスが異常終了しました（詳細: exit status 2）", "取り込みのプロセスが異常終了しました"},
		{"ファイルを読むアクセス権がありません（詳細: open C:\\共有\\a.xls: Access is denied.）", "ファイルを読むアクセス権がありません"},
		{corrupt + "（詳細: ZIP の形式が壊れています）", corrupt + "（詳細: ZIP の形式が壊れています）"},
		{"読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）", "読み取りパスワードが設定されているため開けません（パスワード付きのファイルは取り込めません）"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ingestlist.ShownError(tt.in); got != tt.want {
			t.Errorf("ShownError(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestReadDropsOldDetails: a list written by an earlier version, whose
// エラー holds a path and a Go error chain, reads with the cause alone.
func TestReadDropsOldDetails(t *testing.T) {
	const corrupt = "ファイルが壊れているか、拡張子と中身の形式が一致していません"
	rows := []ingestlist.Row{{RelPath: `営業\a.xlsx`, State: ingestlist.Failed, Updated: "2024/01/02 03:04:05", IngestedAt: "2024/01/02 03:04:06",
		Error: corrupt + "（詳細: /srv/共有/営業/a.xlsx: extract: not a ZIP package）"}}
	var buf bytes.Buffer
	if err := ingestlist.Write(&buf, nil, rows); err != nil {
		t.Fatal(err)
	}
	l, err := ingestlist.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := l.Lookup(`営業\a.xlsx`); !ok || r.Error != corrupt {
		t.Errorf("row read = %+v, want エラー %q", r, corrupt)
	}
}
