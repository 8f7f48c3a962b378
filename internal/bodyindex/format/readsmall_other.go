//go:build !linux

package format

import "os"

// readSmall reads a whole small file (a manifest).
func readSmall(path string) ([]byte, error) { return os.ReadFile(path) }
