//go:build !windows

package share

import "golang.org/x/sys/unix"

// freeSpace is a seam for tests: the bytes an unprivileged user may still
// write on the file system of dir.
var freeSpace = func(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
