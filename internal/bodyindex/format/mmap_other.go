//go:build !unix && !windows

package format

import (
	"fmt"
	"os"
)

// mapFile reads the whole file where mmap is not available.
func mapFile(path string) ([]byte, func() error, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(data) > partLimit {
		return nil, nil, nil, &MalformedError{Path: path, What: fmt.Sprintf("size %d over the limit", len(data))}
	}
	return data, func() error { return nil }, st, nil
}
