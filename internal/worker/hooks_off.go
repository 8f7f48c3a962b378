//go:build !testhooks

package worker

// faultHook is empty in release builds; see hooks_on.go.
func faultHook(name, path string) {}

// noSystemGuard is false in release builds; see hooks_on.go.
func noSystemGuard() bool { return false }
