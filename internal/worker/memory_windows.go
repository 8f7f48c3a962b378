package worker

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// memoryStatusEx is MEMORYSTATUSEX (sysinfoapi.h).
type memoryStatusEx struct {
	length               uint32
	memoryLoad           uint32
	totalPhys            uint64
	availPhys            uint64
	totalPageFile        uint64
	availPageFile        uint64
	totalVirtual         uint64
	availVirtual         uint64
	availExtendedVirtual uint64
}

var procGlobalMemoryStatusEx = windows.NewLazySystemDLL("kernel32.dll").NewProc("GlobalMemoryStatusEx")

// TotalMemory returns the machine's physical memory in bytes
// (GlobalMemoryStatusEx's ullTotalPhys); ok is false when it cannot be
// read.
func TotalMemory() (total uint64, ok bool) {
	st := memoryStatusEx{length: uint32(unsafe.Sizeof(memoryStatusEx{}))}
	if err := procGlobalMemoryStatusEx.Find(); err != nil {
		return 0, false
	}
	r, _, _ := procGlobalMemoryStatusEx.Call(uintptr(unsafe.Pointer(&st)))
	return st.totalPhys, r != 0 && st.totalPhys > 0
}
