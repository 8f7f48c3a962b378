package desktop

import (
	"errors"
	"os/exec"
	"time"
)

// runCommand starts c. With a verdict time it waits that long for the
// program's exit: a non-zero status is an *ExitError; one still running
// has handed the file to an application it waits for, which counts as
// opened (a goroutine reaps it later).
func runCommand(c Command) error {
	cmd := exec.Command(c.Name, c.Args...)
	prepare(cmd, c)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if c.Verdict <= 0 {
		return nil
	}
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return &ExitError{Name: c.Name, Code: ee.ExitCode()}
		}
		return err
	case <-time.After(c.Verdict):
		return nil
	}
}

func lookPath(name string) (string, error) { return exec.LookPath(name) }
