package proctree

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// KillTree kills pid and every process below it (soffice.exe starts
// soffice.bin), found by their parent ids in a process snapshot taken
// first, so children orphaned by the root's death are still known. No
// taskkill /T (Wine has no /T); the worker's Job Object ends whatever is
// left when the worker goes.
func KillTree(pid int) {
	procs := append([]int{pid}, Descendants(pid)...)
	for _, p := range procs {
		h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(p))
		if err != nil {
			continue
		}
		windows.TerminateProcess(h, 1)
		windows.CloseHandle(h)
	}
}

// Children maps each process id to its children, from a Toolhelp
// snapshot's parent ids.
func Children() map[int][]int {
	out := map[int][]int{}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return out
	}
	defer windows.CloseHandle(snap)
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err := windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if e.ProcessID != e.ParentProcessID {
			out[int(e.ParentProcessID)] = append(out[int(e.ParentProcessID)], int(e.ProcessID))
		}
	}
	return out
}
