//go:build !windows

package workspace

import (
	"fmt"
	"os"
	"syscall"
)

func syncDir(dir string) error {
	d, err := openFile(dir, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("workspace: open folder %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("workspace: fsync folder %s: %w", dir, err)
	}
	return nil
}

// openFile is os.OpenFile without the poller's probe (issue 35). os.OpenFile
// makes every descriptor non-blocking, offers it to epoll (which refuses a
// regular file or a folder with EPERM) and makes it blocking again: four
// fcntl and a failing epoll_ctl per open, which for the per-file folders of
// small files were a tenth of the coordinator's system calls. The file is
// opened close-on-exec (workers and converters inherit nothing) and
// os.NewFile only reads its flags once.
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// rename is rename(2) without os.Rename's probe: os.Rename first stats
// newpath (to refuse replacing a folder, as Windows does), a failing
// newfstatat for every new name. Renames in the workspace go to new names
// or over files, never over a folder that must be kept, and rename(2)
// itself refuses a folder that is not empty.
func rename(oldpath, newpath string) error {
	for {
		err := syscall.Rename(oldpath, newpath)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
		}
		return nil
	}
}
