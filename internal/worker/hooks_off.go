//go:build !testhooks

package worker

import "github.com/fumibako/fumibako/internal/extract"

// faultHook is empty in release builds; see hooks_on.go.
func faultHook(name, path string) {}

// noSystemGuard is false in release builds; see hooks_on.go.
func noSystemGuard() bool { return false }

// testLimits is the zero Limits (DefaultLimits) in release builds; see
// hooks_on.go.
func testLimits() extract.Limits { return extract.Limits{} }
