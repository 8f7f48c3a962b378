//go:build !windows

package workspace

import "errors"

// errNoDrives: outside Windows there are no mapped drives.
var errNoDrives = errors.New("workspace: no mapped drives on this system")

func wnetUniversalName(string) (string, error) { return "", errNoDrives }

func logicalDriveRoots() []string { return nil }
