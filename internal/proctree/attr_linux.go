package proctree

import "syscall"

// ChildAttr: a child (the warm converter, Tesseract) dies with the worker,
// and stay in its process group.
func ChildAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
