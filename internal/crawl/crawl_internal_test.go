package crawl

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

type fakeAttrs struct{ cloud string }

func (fakeAttrs) Hidden(string, fs.FileInfo) bool { return false }
func (f fakeAttrs) CloudOnly(p string, _ fs.FileInfo) bool {
	return f.cloud != "" && strings.Contains(p, f.cloud)
}
func (fakeAttrs) ReparsePoint(string, fs.FileInfo) (Reparse, bool) { return Reparse{}, false }

func touch(t testing.TB, root string, rels ...string) {
	t.Helper()
	for _, r := range rels {
		p := filepath.Join(root, filepath.FromSlash(r))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rels(r *Result) []string {
	var out []string
	for _, f := range r.Files {
		out = append(out, f.RelPath)
	}
	return out
}

func TestCrawlSkips(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	touch(t, root,
		"a.xlsx", "b.XLSX", "~$a.xlsx", "c.pdf", "c.jpg", "noext", "d.txt", ".hidden.txt",
		".dot/e.txt", "sub/f.docx", "sub/g.ts", "content_index.txt.001.tsv", "system_index1.txt",
		"ws/work/store/ingest_status.tsv", "ws/x.txt",
		"other/ingest_status.tsv", "other/y.txt",
		"trail. .txt", "Case.txt", "日本語/見積.xlsm",
	)
	skips := map[string]string{"ws": ReasonWorkspace, "other": ReasonWorkspace}
	if runtime.GOOS != "windows" {
		// Names that only Linux and macOS can hold (Windows' separator,
		// a case-insensitive file system), and a symlink (Windows needs a
		// privilege to make one; reparse_internal_test.go covers links).
		touch(t, root, "bad\\name.txt", "case.TXT")
		os.Symlink(filepath.Join(root, "a.xlsx"), filepath.Join(root, "link.xlsx"))
		skips["bad\\name.txt"], skips["case.TXT"], skips["link.xlsx"] = ReasonBackslash, ReasonCaseDup, ReasonSymlink
	}
	res, err := Crawl(context.Background(), workspace.Root{Name: "営業", Path: root},
		Options{Exclude: []string{ws}, Attrs: fakeAttrs{cloud: "f.docx"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`営業\a.xlsx`, `営業\b.XLSX`, `営業\c.pdf`, `営業\Case.txt`, `営業\d.txt`, `営業\sub\f.docx`, `営業\trail. .txt`, `営業\日本語\見積.xlsm`}
	if got := rels(res); !reflect.DeepEqual(got, want) {
		t.Fatalf("Crawl files = %q, want %q", got, want)
	}
	for _, f := range res.Files {
		if f.CloudOnly != strings.HasSuffix(f.RelPath, "f.docx") {
			t.Errorf("%s CloudOnly = %v", f.RelPath, f.CloudOnly)
		}
	}
	reasons := map[string]string{}
	for _, s := range res.Skipped {
		reasons[filepath.Base(s.Path)] = s.Reason
	}
	for name, reason := range skips {
		if reasons[name] != reason {
			t.Errorf("skip reason of %s = %q, want %q", name, reasons[name], reason)
		}
	}
	if res.Incomplete || res.Missing {
		t.Errorf("Incomplete=%v Missing=%v", res.Incomplete, res.Missing)
	}
}

func TestCrawlMissingAndUnreadable(t *testing.T) {
	res, err := Crawl(context.Background(), workspace.Root{Name: "x", Path: filepath.Join(t.TempDir(), "none")}, Options{})
	if err != nil || !res.Missing {
		t.Fatalf("missing root: %+v, %v", res, err)
	}
	root := t.TempDir()
	touch(t, root, "ok/a.txt", "locked/b.txt")
	defer func(old func(string) ([]os.DirEntry, error)) { readDir = old }(readDir)
	readDir = func(dir string) ([]os.DirEntry, error) {
		if filepath.Base(dir) == "locked" {
			return nil, errors.New("permission denied")
		}
		return os.ReadDir(dir)
	}
	res, err = Crawl(context.Background(), workspace.Root{Name: "x", Path: root}, Options{})
	if err != nil || !res.Incomplete || len(res.Files) != 1 {
		t.Fatalf("unreadable subfolder: files=%q incomplete=%v err=%v", rels(res), res.Incomplete, err)
	}
}
