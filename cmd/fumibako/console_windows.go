//go:build windows

package main

import (
	"io"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// outputStreams returns stdout and stderr, re-encoded for PowerShell when
// they are pipes read by it (console.go).
func outputStreams() (stdout, stderr io.Writer) {
	cp, _ := windows.GetConsoleOutputCP()
	parent := parentExe()
	wrap := func(f *os.File) io.Writer {
		var mode uint32
		isConsole := windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
		if e := pipeEncoding(isConsole, cp, parent); e != nil {
			return newEncodingWriter(f, e)
		}
		return f
	}
	return wrap(os.Stdout), wrap(os.Stderr)
}

// parentExe returns the file name of the process that started this one.
func parentExe() string {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(snap)
	self := uint32(os.Getpid())
	names := map[uint32]string{}
	var parent uint32
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err := windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		names[e.ProcessID] = windows.UTF16ToString(e.ExeFile[:])
		if e.ProcessID == self {
			parent = e.ParentProcessID
		}
	}
	return names[parent]
}

// consoleCodePage is the console's output code page, in which console
// tools (schtasks) write to a pipe; 0 without a console.
func consoleCodePage() uint32 {
	cp, _ := windows.GetConsoleOutputCP()
	return cp
}
