package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// fakeWindows makes the retry layer classify errors as Windows does and
// records the sleeps instead of sleeping; it returns the recorded sleeps.
func fakeWindows(t *testing.T) *[]time.Duration {
	t.Helper()
	var slept []time.Duration
	oldRetryable, oldSleep := retryable, sleep
	retryable = func(err error) bool {
		var errno syscall.Errno
		return errors.As(err, &errno) && sharingCode(uintptr(errno))
	}
	sleep = func(d time.Duration) { slept = append(slept, d) }
	t.Cleanup(func() { retryable, sleep = oldRetryable, oldSleep })
	return &slept
}

// failing returns an operation that fails with errno the first n calls
// and then runs op, and a pointer to its call count.
func failing(n int, errno syscall.Errno, op func() error) (func() error, *int) {
	calls := 0
	return func() error {
		calls++
		if calls <= n {
			return &fs.PathError{Op: "rename", Path: "x", Err: errno}
		}
		return op()
	}, &calls
}

func TestRetry(t *testing.T) {
	ok := func() error { return nil }
	tests := []struct {
		name      string
		fails     int
		errno     syscall.Errno
		wantCalls int
		wantErr   bool
	}{
		{"no error", 0, 0, 1, false},
		{"sharing violation twice", 2, winSharingViolation, 3, false},
		{"lock violation once", 1, winLockViolation, 2, false},
		{"access denied 5 times", 5, winAccessDenied, 6, false},
		{"held for good", 1000, winSharingViolation, 0, true},
		{"disk full is not retried", 3, winDiskFull, 1, true},
		{"not found is not retried", 3, 2, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slept := fakeWindows(t)
			op, calls := failing(tt.fails, tt.errno, ok)
			err := retry(op)
			if (err != nil) != tt.wantErr {
				t.Fatalf("retry = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantCalls > 0 && *calls != tt.wantCalls {
				t.Errorf("calls = %d, want %d", *calls, tt.wantCalls)
			}
			var total time.Duration
			for i, d := range *slept {
				total += d
				if d > maxRetryDelay || i > 0 && d < (*slept)[i-1] && total != retryBudget {
					t.Errorf("sleep %d = %v after %v: want growing sleeps of at most %v", i, d, (*slept)[i-1], maxRetryDelay)
				}
			}
			if total > retryBudget {
				t.Errorf("slept %v in all, want at most %v", total, retryBudget)
			}
			if tt.name == "held for good" && total != retryBudget {
				t.Errorf("gave up after sleeping %v, want the whole budget %v", total, retryBudget)
			}
			if len(*slept) != *calls-1 {
				t.Errorf("%d sleeps for %d calls", len(*slept), *calls)
			}
		})
	}
}

// TestRenameRetriesSharingViolation: a rename that another process blocks
// for a moment (the fake answers ERROR_SHARING_VIOLATION three times)
// succeeds, and WriteFileAtomic with it.
func TestRenameRetriesSharingViolation(t *testing.T) {
	fakeWindows(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "ingest_status.tsv")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls2 := 0
	osRename = func(o, n string) error {
		calls2++
		if calls2 <= 3 {
			return &os.LinkError{Op: "rename", Old: o, New: n, Err: syscall.Errno(winSharingViolation)}
		}
		return os.Rename(o, n)
	}
	t.Cleanup(func() { osRename = rename })
	if err := WriteFileAtomic(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != "new" || calls2 != 4 {
		t.Fatalf("content %q after %d renames, want \"new\" after 4", data, calls2)
	}

	// Held past the retries (Excel keeps it open): the old file stays, the
	// temporary file goes, and the error is the run's fault naming the file.
	osRename = func(o, n string) error {
		return &os.LinkError{Op: "rename", Old: o, New: n, Err: syscall.Errno(winSharingViolation)}
	}
	err := WriteFileAtomic(p, []byte("newer"))
	if data, _ := os.ReadFile(p); string(data) != "new" {
		t.Fatalf("content %q after a failed rewrite, want the old", data)
	}
	if _, serr := os.Stat(p + ".tmp"); !os.IsNotExist(serr) {
		t.Errorf("temporary file left behind")
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		t.Fatalf("error %v carries no system error", err)
	}
	if kind, _ := windowsFaultKind(uintptr(errno)); kind != FaultInUse || errPath(err) != p {
		t.Errorf("error %v: kind %q path %q, want in use of %s", err, kind, errPath(err), p)
	}
	if runtime.GOOS == "windows" {
		f := WriteFault(err)
		if f == nil || f.Kind != FaultInUse || f.Path != p {
			t.Errorf("WriteFault(%v) = %+v, want in use of %s", err, f, p)
		}
	}
}

func TestRemoveRetries(t *testing.T) {
	fakeWindows(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "part")
	os.WriteFile(p, nil, 0o644)
	n := 0
	osRemove = func(path string) error {
		n++
		if n <= 2 {
			return &fs.PathError{Op: "remove", Path: path, Err: syscall.Errno(winAccessDenied)}
		}
		return os.Remove(path)
	}
	t.Cleanup(func() { osRemove = os.Remove })
	if err := Remove(p); err != nil || n != 3 {
		t.Fatalf("Remove = %v after %d tries, want nil after 3", err, n)
	}
	if err := Remove(p); err != nil {
		t.Fatalf("Remove of a missing file = %v, want nil", err)
	}
	sub := filepath.Join(dir, "folder")
	os.MkdirAll(filepath.Join(sub, "x"), 0o755)
	m := 0
	osRemoveAll = func(path string) error {
		m++
		if m == 1 {
			return &fs.PathError{Op: "unlinkat", Path: path, Err: syscall.Errno(winSharingViolation)}
		}
		return os.RemoveAll(path)
	}
	t.Cleanup(func() { osRemoveAll = os.RemoveAll })
	if err := RemoveAll(sub); err != nil || m != 2 {
		t.Fatalf("RemoveAll = %v after %d tries", err, m)
	}
	if _, err := os.Stat(sub); !os.IsNotExist(err) {
		t.Fatalf("folder still there")
	}
}

// TestNoRetryOutsideWindows: with the system's own classifier, a rename
// error is returned at once on Linux and macOS.
func TestNoRetryOutsideWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows retries")
	}
	calls := 0
	err := retry(func() error {
		calls++
		return &fs.PathError{Op: "rename", Path: "x", Err: syscall.EACCES}
	})
	if err == nil || calls != 1 {
		t.Fatalf("retry = %v after %d calls, want the error after 1", err, calls)
	}
}
