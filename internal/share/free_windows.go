package share

import "golang.org/x/sys/windows"

// freeSpace is a seam for tests: the bytes the caller may still write on
// the volume of dir (GetDiskFreeSpaceEx, quotas included).
var freeSpace = func(dir string) (uint64, error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, err
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &free); err != nil {
		return 0, err
	}
	return avail, nil
}
