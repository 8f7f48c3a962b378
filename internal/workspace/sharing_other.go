//go:build !windows

package workspace

import "syscall"

// isSharingError is false outside Windows: a rename or removal there does
// not fail because another process has the file open, so nothing is
// retried.
func isSharingError(error) bool { return false }

// osFaultKind adds nothing to the POSIX errors of faultKind.
func osFaultKind(syscall.Errno) (FaultKind, bool) { return "", false }
