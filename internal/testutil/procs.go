package testutil

import (
	"os"
	"path/filepath"
	"strings"
)

// ProcessesWith returns "pid: command line" for each running process
// whose command line names any of dirs, so that a test can find what a
// browser or a server it started left behind (a chromium profile folder,
// a workspace). It reads /proc: elsewhere it finds none.
func ProcessesWith(dirs ...string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || e.Name() == "self" {
			continue
		}
		line := strings.ReplaceAll(string(cmdline), "\x00", " ")
		for _, d := range dirs {
			if strings.Contains(line, d) {
				out = append(out, e.Name()+": "+line)
				break
			}
		}
	}
	return out
}
