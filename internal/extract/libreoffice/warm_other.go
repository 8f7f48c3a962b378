//go:build !linux

package libreoffice

import "syscall"

// childAttr: no parent-death signal outside Linux; the worker's process
// group (Unix) or Job Object (Windows) and warm.py's end of stdin stop the
// converter (warm.go).
func childAttr() *syscall.SysProcAttr { return nil }
