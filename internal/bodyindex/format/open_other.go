//go:build !windows

package format

import "os"

// OpenShared opens a file for reading; on Unix an open file never stops
// its replacement or removal.
func OpenShared(path string) (*os.File, error) { return os.Open(path) }
