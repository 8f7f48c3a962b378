//go:build !windows

package main

// startedWithoutConsole: only Windows starts programs from the file
// manager with a console of their own.
func startedWithoutConsole() bool { return false }
