package testcorpus

import (
	"os"
	"os/exec"
)

// GoBuild runs `go <args>` (a build of the fumibako binary for end-to-end
// tests and benchmarks) the way `make build` does: without cgo, so the
// binary under test is the static one users get.
func GoBuild(args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd.CombinedOutput()
}
