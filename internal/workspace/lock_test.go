package workspace_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestLockTwoProcesses holds the lock in a child process (this test binary
// re-executed) and checks that this process gets the seed's message, and
// that the lock is free again once the child is killed.
func TestLockTwoProcesses(t *testing.T) {
	if dir := os.Getenv("FUMIBAKO_LOCK_CHILD"); dir != "" {
		ws := &workspace.Workspace{Root: dir}
		if _, err := ws.Lock(); err != nil {
			os.Exit(3)
		}
		os.WriteFile(filepath.Join(dir, "locked"), nil, 0o644)
		time.Sleep(time.Minute)
		return
	}
	dir := t.TempDir()
	ws, _ := workspace.Open(dir)
	child := exec.Command(os.Args[0], "-test.run=TestLockTwoProcesses")
	child.Env = append(os.Environ(), "FUMIBAKO_LOCK_CHILD="+dir)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(dir, "locked")); err == nil {
			break
		}
		if i > 500 {
			child.Process.Kill()
			t.Fatal("child never took the lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, err := ws.Lock()
	var le *workspace.LockError
	if !errors.As(err, &le) || err.Error() != "ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。" || !errors.Is(err, workspace.ErrLocked) {
		t.Errorf("Lock while the child holds it = %v", err)
	}
	if !ws.IsLocked() {
		t.Errorf("IsLocked = false while held")
	}
	child.Process.Kill()
	child.Wait()
	l, err := ws.Lock()
	if err != nil {
		t.Fatalf("Lock after the holder died = %v", err)
	}
	l.Release()
}
