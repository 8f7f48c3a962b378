package bodyindex

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/testutil"
)

// failWhileMapped makes format.RemoveFile fail as Windows does for a file some
// process has mapped (ERROR_ACCESS_DENIED), recognising mapped files by
// inode in /proc/self/maps; on Windows the real os.Remove fails by itself.
func failWhileMapped(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/maps"); err != nil {
		testutil.Unavailable(t, "no /proc/self/maps to tell mapped files: %v", err)
	}
	old := format.RemoveFile
	t.Cleanup(func() { format.RemoveFile = old })
	format.RemoveFile = func(path string) error {
		if st, err := os.Lstat(path); err == nil && mappedInode(st) {
			return &os.PathError{Op: "remove", Path: path, Err: syscall.Errno(5)}
		}
		return old(path)
	}
}

func mappedInode(st os.FileInfo) bool {
	ino := st.Sys().(*syscall.Stat_t).Ino
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fl := strings.Fields(sc.Text()); len(fl) >= 6 && fl[4] == fmt.Sprint(ino) {
			return true
		}
	}
	return false
}
