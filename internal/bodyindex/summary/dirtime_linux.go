//go:build linux

package summary

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// dirMtime returns the modification time (Unix ns) of the folder at path.
// A search checks hundreds of folders against the summary: a plain stat
// into a local struct allocates nothing, unlike os.Stat.
func dirMtime(path string) (int64, bool) {
	return statMtime(unix.AT_FDCWD, path)
}

// dirStatter stats folders below one root through an open descriptor of
// the root, so that the kernel resolves only the relative part of each
// path (a search stats every folder of an index).
type dirStatter struct {
	fd   int
	root string
}

func openDirStatter(root string) *dirStatter {
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	return &dirStatter{fd: fd, root: root}
}

// mtime returns the modification time of the folder rel (/-separated, ""
// for the root).
func (s *dirStatter) mtime(rel string) (int64, bool) {
	if s.fd < 0 {
		return dirMtime(joinPath(s.root, rel))
	}
	if rel == "" {
		rel = "."
	}
	return statMtime(s.fd, rel)
}

func (s *dirStatter) close() {
	if s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
}

func statMtime(dirfd int, path string) (int64, bool) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dirfd, path, &st, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return 0, false
		}
		return st.Mtim.Nano(), true
	}
}
