//go:build !testhooks

package main

import (
	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/web"
)

// newOpener is the desktop of this system, writing its scripts under tmp
// (see openhook_on.go for the test builds).
func newOpener(tmp string) web.Opener { return desktop.New(tmp) }

// openURL opens a page in the default browser (serve --open).
func openURL(tmp, u string) error { return desktop.New(tmp).OpenURL(u) }
