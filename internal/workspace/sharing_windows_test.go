//go:build windows

package workspace

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// holdOpen opens path as Excel opens a workbook: reading and writing,
// sharing reads only (no FILE_SHARE_DELETE, so the name cannot be renamed
// over or deleted while it is open).
func holdOpen(t *testing.T, path string) syscall.Handle {
	t.Helper()
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, syscall.FILE_SHARE_READ, nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestRewriteWhileHeldOpen: a rewrite of a file another program holds for
// a moment succeeds once it lets go (the retry layer); one held past the
// retries fails without touching the file, as the run's fault naming it.
// Wine 8 refuses the rename as Windows does, so the Wine lane runs it too.
func TestRewriteWhileHeldOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ingest_status.tsv")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := holdOpen(t, p)
	go func() {
		time.Sleep(300 * time.Millisecond)
		syscall.CloseHandle(h)
	}()
	if err := WriteFileAtomic(p, []byte("new")); err != nil {
		t.Fatalf("rewrite of a file held for 300 ms: %v", err)
	}
	if data, _ := os.ReadFile(p); string(data) != "new" {
		t.Fatalf("content %q, want \"new\"", data)
	}

	h = holdOpen(t, p)
	defer syscall.CloseHandle(h)
	err := WriteFileAtomic(p, []byte("newer"))
	if err == nil {
		t.Fatal("a file held open without FILE_SHARE_DELETE was replaced")
	}
	f := WriteFault(err)
	if f == nil || (f.Kind != FaultInUse && f.Kind != FaultDenied) || f.Path != p {
		t.Fatalf("WriteFault(%v) = %+v, want in use or denied for %s", err, f, p)
	}
	t.Logf("held past the retries: %v (%s)", err, f.Kind)
	if data, _ := os.ReadFile(p); string(data) != "new" {
		t.Errorf("content %q after the refused rewrite, want the old", data)
	}
	if _, serr := os.Stat(p + tmpSuffix); !os.IsNotExist(serr) {
		t.Errorf("temporary file left behind")
	}
}
