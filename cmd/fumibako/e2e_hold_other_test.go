//go:build !windows

package main

import "testing"

// holdLikeExcel stands in for a file held open by Excel where an open file
// can always be renamed over: the fault seam refuses the first rename of
// the ingest list with EACCES, as Windows refuses it (ERROR_ACCESS_DENIED)
// once the retries are spent. It returns the function that lets go.
func holdLikeExcel(t *testing.T, f *fixture, path string) func() {
	f.env = append(f.env, "FUMIBAKO_TEST_WSFAULT=list-rename:1:EACCES")
	return func() {}
}
