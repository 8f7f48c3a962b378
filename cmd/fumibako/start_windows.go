//go:build windows

package main

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

var procGetConsoleProcessList = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetConsoleProcessList")

// startedWithoutConsole reports a start from Explorer: Windows made a
// console for this process alone, so the console's process list holds
// only it (from cmd.exe or PowerShell it holds the shell too).
func startedWithoutConsole() bool {
	var pids [2]uint32
	n, _, _ := procGetConsoleProcessList.Call(uintptr(unsafe.Pointer(&pids[0])), 2)
	return n == 1
}
