//go:build !windows

package main

import (
	"io"
	"os"
)

// outputStreams: terminals and pipes on Linux and macOS take UTF-8.
func outputStreams() (stdout, stderr io.Writer) { return os.Stdout, os.Stderr }

// consoleCodePage is 0: other systems' tools write UTF-8.
func consoleCodePage() uint32 { return 0 }
