package workspace_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

func TestWriteFault(t *testing.T) {
	path := "/ws/work/store/ingest_status.tsv"
	pathErr := func(errno syscall.Errno) error { return &fs.PathError{Op: "write", Path: path + ".tmp", Err: errno} }
	tests := []struct {
		name string
		err  error
		kind workspace.FaultKind // "" = not a fault
		path string
		text string
	}{
		{"disk full", pathErr(syscall.ENOSPC), workspace.FaultFull, path, "ディスクに空きが無い"},
		{"quota", pathErr(syscall.EDQUOT), workspace.FaultFull, path, "空きを作って"},
		{"read-only", pathErr(syscall.EROFS), workspace.FaultReadOnly, path, "読み取り専用"},
		{"I/O error", pathErr(syscall.EIO), workspace.FaultIO, path, "読み書きのエラー"},
		{"permission", pathErr(syscall.EACCES), workspace.FaultDenied, path, "閉じ"},
		{"not permitted", pathErr(syscall.EPERM), workspace.FaultDenied, path, "書き込みの権限"},
		{"wrapped twice", fmt.Errorf("ingestlist: write: %w", fmt.Errorf("workspace: write: %w", pathErr(syscall.ENOSPC))), workspace.FaultFull, path, path},
		{"rename names the target", &os.LinkError{Op: "rename", Old: "a.tmp", New: "/ws/a", Err: syscall.EROFS}, workspace.FaultReadOnly, "/ws/a", "/ws/a"},
		{"split workspace", &os.LinkError{Op: "rename", Old: "/ws/work/tmp/s", New: "/ws/work/store/content/a", Err: syscall.EXDEV}, workspace.FaultSplit, "/ws/work/store/content/a", "別のドライブ"},
		{"held open (Windows, after the retries)", &workspace.FaultError{Kind: workspace.FaultInUse, Path: path, Err: syscall.Errno(32)}, workspace.FaultInUse, path, path + " がほかのアプリ（Excel など）で開かれているため書き込めず、インデックス作成を中止しました。ファイルを閉じてから"},
		{"no path", syscall.ENOSPC, workspace.FaultFull, "", "作業フォルダ"},
		{"missing file", pathErr(syscall.ENOENT), "", "", ""},
		{"bad name", pathErr(syscall.EINVAL), "", "", ""},
		{"not a system error", errors.New("content: two places named x"), "", "", ""},
		{"nil", nil, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := workspace.WriteFault(tt.err)
			if tt.kind == "" {
				if f != nil {
					t.Fatalf("WriteFault(%v) = %+v, want nil", tt.err, f)
				}
				return
			}
			if f == nil || f.Kind != tt.kind || f.Path != tt.path {
				t.Fatalf("WriteFault(%v) = %+v, want kind %s path %q", tt.err, f, tt.kind, tt.path)
			}
			msg := f.Error()
			if !strings.Contains(msg, tt.text) || !strings.Contains(msg, "インデックス作成を中止しました") || !strings.Contains(msg, "続きから取り込みます") {
				t.Errorf("message %q lacks %q or the resume note", msg, tt.text)
			}
			if !errors.Is(f, tt.err) {
				t.Errorf("the fault does not unwrap to its cause")
			}
			// A fault wrapped again is found as it is.
			if g := workspace.WriteFault(fmt.Errorf("indexer: %w", f)); g != f {
				t.Errorf("WriteFault of a wrapped fault = %+v, want the same", g)
			}
		})
	}
}
