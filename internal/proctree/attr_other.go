//go:build !linux

package proctree

import "syscall"

// ChildAttr: no parent-death signal outside Linux; the worker's process
// group (Unix) or Job Object (Windows) and warm.py's end of stdin stop the
// converter (libreoffice/warm.go).
func ChildAttr() *syscall.SysProcAttr { return nil }
