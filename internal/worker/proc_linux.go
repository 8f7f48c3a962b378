//go:build linux

package worker

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the worker into its own process group, so that a
// kill reaches the converters it starts and nothing else; on Linux the
// worker also dies with the coordinator (Pdeathsig), so a killed run leaves
// no worker behind; the worker watches its coordinator itself as well
// (Serve), on every system.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if noSystemGuard() {
		cmd.SysProcAttr.Pdeathsig = 0
	}
}
