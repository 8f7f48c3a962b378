//go:build testhooks

package crawl

import (
	"errors"
	"os"
	"strings"
)

// With FUMIBAKO_TEST_UNREADABLE=<substring>, folders whose path contains it
// cannot be listed (end-to-end tests of an incomplete crawl; permissions
// do not stop root). Only in binaries built with -tags testhooks.
func init() {
	sub := os.Getenv("FUMIBAKO_TEST_UNREADABLE")
	if sub == "" {
		return
	}
	readDir = func(dir string) ([]os.DirEntry, error) {
		if strings.Contains(dir, sub) {
			return nil, errors.New("permission denied (test hook)")
		}
		return os.ReadDir(dir)
	}
}
