//go:build unix && !linux

package proctree_test

import (
	"os/exec"
	"strconv"
	"strings"
)

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err != nil || strings.HasPrefix(strings.TrimSpace(string(out)), "Z")
}
