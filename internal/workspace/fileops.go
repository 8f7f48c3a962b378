package workspace

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/fumibako/fumibako/internal/osfile"
)

// The workspace's file operations. Every rename, removal and folder
// creation inside the workspace goes through these, for two reasons:
//
//   - On Windows, antivirus scanners, the search indexer and a user's Excel
//     hold files open for a moment, and a rename over, or a removal of, such
//     a file fails with a sharing or access error that goes away by itself.
//     These functions retry those errors briefly (retryBudget, with
//     backoff), like the Go toolchain's cmd/internal/robustio; every other
//     error, and every error on other systems, is returned at once. An error
//     that outlasts the retries is returned as it is, and the caller's
//     WriteFault turns it into the run's fault ("close the file").
//   - Tests of binaries built with -tags testhooks make these operations
//     fail on purpose (hooks_on.go), to prove that a full or read-only
//     workspace stops the run without blaming a file.

// Operations the fault hook tells apart (hooks_on.go).
const (
	opCreate = "create"
	opWrite  = "write"
	opSync   = "fsync"
	opRename = "rename"
	opRemove = "remove"
	opMkdir  = "mkdir"
	opAppend = "append"
)

// retryBudget bounds the total sleep of one operation's retries.
const retryBudget = 3 * time.Second

// maxRetryDelay caps one sleep between two tries.
const maxRetryDelay = 500 * time.Millisecond

// Seams for the retry tests: the classifier of retryable errors (the OS's:
// none outside Windows) and the sleep.
var (
	retryable = isSharingError
	sleep     = time.Sleep
)

// The system calls behind Rename, Remove and RemoveAll: seams through which
// tests inject sharing errors.
var (
	osRename    = rename
	osRemove    = os.Remove
	osRemoveAll = os.RemoveAll
)

// retry runs op until it succeeds, fails with an error that retryable
// rejects, or the retries have slept retryBudget in total. The sleeps start
// at 2 ms and double up to maxRetryDelay. It returns op's last error.
func retry(op func() error) error {
	err := op()
	delay := 2 * time.Millisecond
	for slept := time.Duration(0); err != nil && retryable(err) && slept < retryBudget; {
		d := min(delay, retryBudget-slept)
		sleep(d)
		slept += d
		delay = min(2*delay, maxRetryDelay)
		err = op()
	}
	return err
}

// Rename renames oldpath to newpath (replacing a file there), retrying
// sharing errors on Windows.
func Rename(oldpath, newpath string) error {
	return retry(func() error {
		if err := injectedFault(opRename, newpath); err != nil {
			return err
		}
		return osRename(oldpath, newpath)
	})
}

// RenameOnce is Rename without the retries, for callers that have a
// fallback of their own when a rename is refused (content.Trash): one
// try, and no probe of newpath.
func RenameOnce(oldpath, newpath string) error {
	if err := injectedFault(opRename, newpath); err != nil {
		return err
	}
	return osRename(oldpath, newpath)
}

// OpenRead opens a file of the workspace for reading, close-on-exec and
// without os.Open's poller probe on Unix (osfile.Open).
func OpenRead(path string) (*os.File, error) { return osfile.OpenRead(path) }

// ReadFile is os.ReadFile through OpenRead (osfile.ReadFile).
func ReadFile(path string) ([]byte, error) { return osfile.ReadFile(path) }

// Remove removes a file or an empty folder, retrying sharing errors on
// Windows. A path that does not exist is no error.
func Remove(path string) error {
	err := retry(func() error {
		if err := injectedFault(opRemove, path); err != nil {
			return err
		}
		return osRemove(path)
	})
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// RemoveAll removes path and everything below it, retrying sharing errors
// on Windows (a file of the folder held open for a moment). A path that
// does not exist is no error.
func RemoveAll(path string) error {
	return retry(func() error {
		if err := injectedFault(opRemove, path); err != nil {
			return err
		}
		return osRemoveAll(path)
	})
}

// Mkdir creates one folder (mode 0755) whose parent exists; an existing
// one is os.ErrExist, a missing parent os.ErrNotExist (one mkdirat where
// MkdirAll stats first).
func Mkdir(path string) error {
	if err := injectedFault(opMkdir, path); err != nil {
		return err
	}
	return os.Mkdir(path, 0o755)
}

// MkdirAll creates a folder and its parents (mode 0755).
func MkdirAll(path string) error {
	if err := injectedFault(opMkdir, path); err != nil {
		return err
	}
	return os.MkdirAll(path, 0o755)
}

// WriteNewFile creates path (which nobody reads yet: a file of a staging
// folder that is renamed into place as a whole), lets fill write it through
// a buffer and fsyncs it. Rewrites of files that readers see go through
// WriteFileAtomic instead.
func WriteNewFile(path string, fill func(*bufio.Writer)) error {
	if err := injectedFault(opCreate, path); err != nil {
		return fmt.Errorf("workspace: create %s: %w", path, err)
	}
	f, err := osfile.Open(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("workspace: create %s: %w", path, err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	fill(w)
	err = w.Flush()
	if err == nil {
		err = injectedFault(opWrite, path)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("workspace: write %s: %w", path, err)
	}
	if err := syncFile(f); err != nil {
		f.Close()
		return fmt.Errorf("workspace: fsync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("workspace: close %s: %w", path, err)
	}
	return nil
}

// syncFile fsyncs f, or fails as the fault hook says.
func syncFile(f *os.File) error {
	if err := injectedFault(opSync, f.Name()); err != nil {
		return err
	}
	return f.Sync()
}

// readShared reads a whole file that writers replace by renames
// (settings.json), retrying sharing errors on Windows: there a read may
// meet the file while a writer's rename replaces it (and a writer's rename
// waits, by the same retries, for a reader to close it).
func readShared(path string) ([]byte, error) {
	var data []byte
	err := retry(func() error {
		var err error
		data, err = os.ReadFile(path)
		return err
	})
	return data, err
}
