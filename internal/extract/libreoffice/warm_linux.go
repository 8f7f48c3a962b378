package libreoffice

import "syscall"

// childAttr: the warm converter's processes die with the worker (warm.go),
// and stay in its process group.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
