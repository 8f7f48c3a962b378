//go:build windows

package workspace

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/windows"
)

// mpr.dll's WNetGetUniversalNameW, loaded on first use (no cgo).
var (
	modMpr                   = windows.NewLazySystemDLL("mpr.dll")
	procWNetGetUniversalName = modMpr.NewProc("WNetGetUniversalNameW")
)

// universalNameInfoLevel asks WNetGetUniversalNameW for a
// UNIVERSAL_NAME_INFO: one pointer to the UNC string, which the call
// writes into the same buffer after the structure.
const universalNameInfoLevel = 1

// wnetUniversalName returns the UNC form of a path on a mapped drive
// (WNetGetUniversalNameW). A local drive gives ERROR_NOT_CONNECTED, a
// system without the network provider ERROR_NO_NETWORK or
// ERROR_NOT_SUPPORTED: all errors.
func wnetUniversalName(p string) (string, error) {
	if err := procWNetGetUniversalName.Find(); err != nil {
		return "", fmt.Errorf("workspace: WNetGetUniversalNameW: %w", err)
	}
	in, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return "", err
	}
	size := uint32(1024)
	for range 3 {
		buf := make([]byte, size)
		r, _, _ := procWNetGetUniversalName.Call(uintptr(unsafe.Pointer(in)), universalNameInfoLevel,
			uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&size)))
		switch windows.Errno(r) {
		case 0:
			// The structure's one field points into buf itself, after it.
			ptr := *(**uint16)(unsafe.Pointer(&buf[0]))
			if ptr == nil {
				return "", fmt.Errorf("workspace: WNetGetUniversalNameW %s: no name", p)
			}
			name := windows.UTF16PtrToString(ptr)
			runtime.KeepAlive(buf)
			return name, nil
		case windows.ERROR_MORE_DATA:
			continue // size now holds what is needed
		default:
			return "", fmt.Errorf("workspace: WNetGetUniversalNameW %s: %w", p, windows.Errno(r))
		}
	}
	return "", fmt.Errorf("workspace: WNetGetUniversalNameW %s: buffer keeps growing", p)
}

// logicalDriveRoots lists the drive roots (GetLogicalDrives).
func logicalDriveRoots() []string {
	mask, err := windows.GetLogicalDrives()
	if err != nil {
		return nil
	}
	var out []string
	for i := 0; i < 26; i++ {
		if mask&(1<<uint(i)) != 0 {
			out = append(out, string(rune('A'+i))+`:\`)
		}
	}
	return out
}
