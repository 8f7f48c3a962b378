//go:build !testhooks

package indexer

// crashPoint is empty in release builds; see crash_on.go.
func crashPoint(name string) {}

// crashPublishing is empty in release builds; see crash_on.go.
func crashPublishing(folder string) {}
