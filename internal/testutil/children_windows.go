//go:build windows

package testutil

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

func childrenOf(pid int) []int {
	var out []int
	processes(func(e *windows.ProcessEntry32) {
		if int(e.ParentProcessID) == pid && e.ProcessID != e.ParentProcessID {
			out = append(out, int(e.ProcessID))
		}
	})
	return out
}

func threads(pid int) int {
	n := 0
	processes(func(e *windows.ProcessEntry32) {
		if int(e.ProcessID) == pid {
			n = int(e.Threads)
		}
	})
	return n
}

// processes calls f with each entry of a Toolhelp process snapshot.
func processes(f func(*windows.ProcessEntry32)) {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return
	}
	defer windows.CloseHandle(snap)
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err := windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		f(&e)
	}
}

func running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == 259 // STILL_ACTIVE
}
