//go:build !windows

package desktop

import (
	"errors"
	"os/exec"
)

func prepare(*exec.Cmd, Command) {}

// shellExecute: shell verbs exist on Windows only.
func shellExecute(verb, file string) error {
	return errors.New("desktop: shell verbs need Windows")
}
