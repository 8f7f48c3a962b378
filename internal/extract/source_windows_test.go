package extract_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// TestExtractRefusesNonRegularWindows: Windows has no O_NONBLOCK (and no
// named pipes inside folders), so the source is opened plainly; what is
// no regular file must still be refused with MsgNotRegular before any
// reader reads it: a folder put in a file's place after the crawl, and a
// device name (NUL, also as NUL.txt inside a folder, which Windows before
// 11 and Wine open as the device). Wine shows all of them; Windows 11
// reads dir\NUL.txt as an ordinary (here absent) name, and that case
// skips there.
func TestExtractRefusesNonRegularWindows(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "報告.docx")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, as string }{
		{"folder in place of a .docx", folder, "報告.docx"},
		{"folder in place of a .txt", folder, "メモ.txt"},
		{`\\.\NUL as .xlsx`, `\\.\NUL`, "表.xlsx"},
		{"NUL as .txt", "NUL", "メモ.txt"},
		{`dir\NUL.txt`, filepath.Join(dir, "NUL.txt"), "NUL.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); errors.Is(err, fs.ErrNotExist) {
				t.Skipf("%s is no device here (Windows 11 reads it as an ordinary name, absent)", tt.path)
			}
			_, err := extract.Extract(context.Background(), tt.path, tt.as, extract.Options{Scratch: dir})
			var fe *extract.Error
			if !errors.As(err, &fe) || fe.Msg != extract.MsgNotRegular {
				t.Fatalf("Extract(%s) = %v, want %q", tt.path, err, extract.MsgNotRegular)
			}
		})
	}
}
