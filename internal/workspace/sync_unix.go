//go:build !windows

package workspace

import (
	"fmt"
	"os"
	"syscall"

	"github.com/fumibako/fumibako/internal/osfile"
)

func syncDir(dir string) error {
	d, err := osfile.OpenRead(dir)
	if err != nil {
		return fmt.Errorf("workspace: open folder %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("workspace: fsync folder %s: %w", dir, err)
	}
	return nil
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
