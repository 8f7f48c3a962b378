package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// FaultKind names what is wrong with the workspace when a write fails.
type FaultKind string

// Kinds of workspace faults. The values travel in the worker protocol.
const (
	FaultFull     FaultKind = "full"     // no space left (ENOSPC, EDQUOT, ERROR_DISK_FULL)
	FaultReadOnly FaultKind = "readonly" // read-only file system (EROFS, ERROR_WRITE_PROTECT)
	FaultIO       FaultKind = "io"       // the disk or the share failed (EIO, ERROR_CRC, …)
	FaultDenied   FaultKind = "denied"   // no permission, or a file held open (EACCES, EPERM, ERROR_ACCESS_DENIED)
	FaultInUse    FaultKind = "inuse"    // a file held open by another program (ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION)
	FaultSplit    FaultKind = "split"    // folders of work/ on different file systems: renames fail (EXDEV, ERROR_NOT_SAME_DEVICE)
)

// Messages of the run's workspace faults (DESIGN.md "Bad input and faults":
// a fault of the workspace itself stops the run with a clear message and is
// never recorded as a file's failure). Each names the file or folder that
// could not be written; msgFaultResume says that nothing is lost.
const (
	msgFaultFull     = "作業フォルダのディスクに空きが無いため、インデックス作成を中止しました（書き込めなかった場所: %s）。空きを作ってから、もう一度インデックス作成を始めてください。"
	msgFaultReadOnly = "作業フォルダが読み取り専用のため、インデックス作成を中止しました（書き込めなかった場所: %s）。書き込めるようにしてから、もう一度インデックス作成を始めてください。"
	msgFaultIO       = "作業フォルダのディスクで読み書きのエラーが起きたため、インデックス作成を中止しました（書き込めなかった場所: %s）。ディスク（ネットワークのフォルダなら接続）を確かめてから、もう一度インデックス作成を始めてください。"
	msgFaultDenied   = "%s に書き込めないため、インデックス作成を中止しました（ほかのアプリ（Excel など）で開かれているか、書き込みの権限がありません）。開いていればファイルを閉じ、書き込めるようにしてから、もう一度インデックス作成を始めてください。"
	msgFaultInUse    = "%s がほかのアプリ（Excel など）で開かれているため書き込めず、インデックス作成を中止しました。ファイルを閉じてから、もう一度インデックス作成を始めてください。"
	msgFaultSplit    = "作業フォルダの中のフォルダが別のドライブ（マウント）に分かれていてファイルを移せないため、インデックス作成を中止しました（移せなかった場所: %s）。作業フォルダ全体を 1 つのドライブに置いてから、もう一度インデックス作成を始めてください。"
	msgFaultResume   = "取り込み済みのファイルはそのまま残り、次のインデックス作成で続きから取り込みます（ファイルの失敗にはしていません）。"
	msgFaultNoPath   = "作業フォルダ"
)

// FaultError is a write to the workspace that failed because of the
// workspace itself: the disk is full, read-only or failing, or a file is
// not writable or held open by another program. It is the run's fault,
// never a source file's: the run stops (exit 1) and the file in flight
// stays 未取り込み. Error is the Japanese message for the user; Unwrap
// gives the English cause.
type FaultError struct {
	Kind FaultKind
	Path string // the file or folder that could not be written ("" when unknown)
	Err  error
}

func (e *FaultError) Error() string {
	path := e.Path
	if path == "" {
		path = msgFaultNoPath
	}
	format := msgFaultIO
	switch e.Kind {
	case FaultFull:
		format = msgFaultFull
	case FaultReadOnly:
		format = msgFaultReadOnly
	case FaultDenied:
		format = msgFaultDenied
	case FaultInUse:
		format = msgFaultInUse
	case FaultSplit:
		format = msgFaultSplit
	}
	return fmt.Sprintf(format, path) + msgFaultResume
}

func (e *FaultError) Unwrap() error { return e.Err }

// WriteFault returns the *FaultError of err, an error of writing (or
// renaming, removing, creating a folder in) the workspace, when its cause is
// a fault of the workspace; nil when it is something else (a bad name, a
// missing file). An error that already holds a *FaultError gives that one.
// Only call it for errors of workspace writes: reading a source file can
// fail with EIO or EACCES too, and that is the file's failure.
func WriteFault(err error) *FaultError {
	if err == nil {
		return nil
	}
	var f *FaultError
	if errors.As(err, &f) {
		return f
	}
	kind, ok := faultKind(err)
	if !ok {
		return nil
	}
	return &FaultError{Kind: kind, Path: errPath(err), Err: err}
}

// faultKind classifies the system error inside err.
func faultKind(err error) (FaultKind, bool) {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return "", false
	}
	if k, ok := osFaultKind(errno); ok {
		return k, true
	}
	switch errno {
	case syscall.ENOSPC, syscall.EDQUOT:
		return FaultFull, true
	case syscall.EROFS:
		return FaultReadOnly, true
	case syscall.EIO:
		return FaultIO, true
	case syscall.EACCES, syscall.EPERM:
		return FaultDenied, true
	case syscall.EXDEV:
		return FaultSplit, true
	}
	return "", false
}

// errPath returns the path of the first path-carrying error in err's
// chain; for the temporary file of an atomic rewrite, the file it rewrites
// (the one the user knows).
func errPath(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	path := ""
	switch {
	case errors.As(err, &le):
		path = le.New
	case errors.As(err, &pe):
		path = pe.Path
	}
	return strings.TrimSuffix(path, tmpSuffix)
}

// Windows error codes (winerror.h) that faults and retries are about. They
// are plain numbers here so that the tables are tested on every system.
const (
	winAccessDenied     = 5    // ERROR_ACCESS_DENIED
	winWriteProtect     = 19   // ERROR_WRITE_PROTECT
	winNotReady         = 21   // ERROR_NOT_READY
	winCRC              = 23   // ERROR_CRC
	winSharingViolation = 32   // ERROR_SHARING_VIOLATION
	winNotSameDevice    = 17   // ERROR_NOT_SAME_DEVICE
	winLockViolation    = 33   // ERROR_LOCK_VIOLATION
	winHandleDiskFull   = 39   // ERROR_HANDLE_DISK_FULL
	winUnexpNetErr      = 59   // ERROR_UNEXP_NET_ERR
	winNetnameDeleted   = 64   // ERROR_NETNAME_DELETED
	winDiskFull         = 112  // ERROR_DISK_FULL
	winIODevice         = 1117 // ERROR_IO_DEVICE
)

// sharingCode reports whether a Windows error code is one that a file held
// open by another process gives and that waiting can resolve: a sharing or
// lock violation, or access denied (what renaming over or deleting a file
// opened without FILE_SHARE_DELETE gives). robustio retries the same set
// (without ERROR_FILE_NOT_FOUND, which here means the file is gone).
func sharingCode(code uintptr) bool {
	switch code {
	case winAccessDenied, winSharingViolation, winLockViolation:
		return true
	}
	return false
}

// windowsFaultKind classifies a Windows error code.
func windowsFaultKind(code uintptr) (FaultKind, bool) {
	switch code {
	case winDiskFull, winHandleDiskFull:
		return FaultFull, true
	case winWriteProtect:
		return FaultReadOnly, true
	case winCRC, winIODevice, winNotReady, winUnexpNetErr, winNetnameDeleted:
		return FaultIO, true
	case winAccessDenied:
		return FaultDenied, true
	case winSharingViolation, winLockViolation:
		return FaultInUse, true
	case winNotSameDevice:
		return FaultSplit, true
	}
	return "", false
}
