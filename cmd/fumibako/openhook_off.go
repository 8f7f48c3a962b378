//go:build !testhooks

package main

import "github.com/fumibako/fumibako/internal/web"

// openPath opens a file with the desktop's application (see
// openhook_on.go for the test builds).
func openPath(p string) error { return web.OpenPath(p) }

// openURL opens a page in the default browser (serve --open).
func openURL(u string) error { return web.OpenURL(u) }
