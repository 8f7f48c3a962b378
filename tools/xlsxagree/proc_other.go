//go:build !unix

package main

import "os/exec"

// ownGroup leaves cmd as it is: without process groups the context's end
// kills soffice itself (exec.CommandContext's default).
func ownGroup(cmd *exec.Cmd) {}
