//go:build !windows && !linux

package worker

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the worker into its own process group, so that a
// kill reaches the converters it starts and nothing else.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
