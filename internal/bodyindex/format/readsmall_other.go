//go:build !linux

package format

import "github.com/fumibako/fumibako/internal/osfile"

// readSmall reads a whole small file (a manifest).
func readSmall(path string) ([]byte, error) { return osfile.ReadFile(path) }
