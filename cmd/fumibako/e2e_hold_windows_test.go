//go:build windows

package main

import (
	"testing"

	"github.com/fumibako/fumibako/internal/testutil"
)

// holdLikeExcel opens path as Excel opens a workbook (testutil.HoldLikeExcel):
// reading and writing, sharing reads only, so that it can be neither
// written by others nor renamed over. It returns the function that closes
// it.
func holdLikeExcel(t *testing.T, _ *fixture, path string) func() {
	t.Helper()
	return testutil.HoldLikeExcel(t, path)
}
