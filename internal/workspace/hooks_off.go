//go:build !testhooks

package workspace

// injectedFault is empty in release builds; see hooks_on.go.
func injectedFault(op, path string) error { return nil }
