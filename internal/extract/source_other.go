//go:build !unix

package extract

import "os"

// openNoBlock opens path read-only: opening a file never blocks on these
// systems (Windows has no named pipes in its file systems' folders).
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
