package workspace

import (
	"strings"
)

// Network folders (issue 30). A shared folder is reached by its UNC path
// (\\server\share\…) or through a drive letter mapped to the share
// (Z:\…); the two are one place. The crawl root, the known path of an
// index and the source folder of an index are compared as places, so a
// folder added again through the other spelling, or after its drive was
// mapped to another letter, keeps its index name (its rows, keyed by
// name, are then not ingested again), and a hit whose file is missing
// under one spelling is tried under the other (reference/search.md §9).
//
// What a drive is mapped to is asked through universalName, on Windows
// mpr.dll's WNetGetUniversalName (share_windows.go, no cgo: a lazy DLL
// call through golang.org/x/sys/windows); elsewhere there are no drive
// letters and it always fails. Tests replace it (and driveRoots) with a
// fake. Paths here are in Windows form whatever the OS (`\` separators),
// so the logic runs and is tested everywhere.

// universalName returns the UNC form of a path on a mapped network drive
// ("Z:\営業" → "\\srv\共有\営業"); an error for a local drive or a path
// that is not one.
var universalName = wnetUniversalName

// driveRoots lists the drive roots ("C:\", "Z:\") the system knows.
var driveRoots = logicalDriveRoots

// DriveRoots lists the drive roots of this machine (GetLogicalDrives) on
// Windows, nil elsewhere: the web UI's folder picker starts there.
func DriveRoots() []string { return driveRoots() }

// isDrivePath reports whether p starts with a drive letter and a colon.
func isDrivePath(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// IsUNC reports whether p is a UNC path (\\server\share…).
func IsUNC(p string) bool {
	return len(p) > 2 && (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/') && p[2] != '?' && p[2] != '.'
}

// IsNetworkPath reports whether p names a folder on another computer: a
// UNC path, or a path on a drive mapped to a share. The web UI warns
// before it touches such a folder for a received index, because Windows
// may send the user's credentials there (reference/search.md §9).
func IsNetworkPath(p string) bool {
	if IsUNC(p) {
		return true
	}
	if isDrivePath(p) {
		_, err := universalName(p)
		return err == nil
	}
	return false
}

// ShareAliases returns the other spellings of p through the mapped
// drives: a drive path gives its UNC path, a UNC path gives every mapped
// drive under which it lies. None for a local path.
func ShareAliases(p string) []string {
	var out []string
	switch {
	case isDrivePath(p):
		if u, err := universalName(p); err == nil && u != "" && !strings.EqualFold(u, p) {
			out = append(out, u)
		}
	case IsUNC(p):
		for _, d := range driveRoots() {
			u, err := universalName(d)
			if err != nil || u == "" {
				continue
			}
			if rest, ok := cutShare(p, u); ok {
				out = append(out, strings.TrimRight(d, `\/`)+rest)
			}
		}
	}
	return out
}

// cutShare returns the part of p after the UNC prefix u (with its
// leading separator, or "" when p is u), when p lies under u; compared
// ignoring case and the separator's spelling, as Windows does.
func cutShare(p, u string) (string, bool) {
	norm := func(s string) string { return strings.ReplaceAll(strings.TrimRight(s, `\/`), "/", `\`) }
	np, nu := norm(p), norm(u)
	if len(np) < len(nu) || !strings.EqualFold(np[:len(nu)], nu) {
		return "", false
	}
	rest := np[len(nu):]
	if rest != "" && rest[0] != '\\' {
		return "", false
	}
	return rest, true
}

// SamePlace reports whether a and b name the same folder: equal as paths
// (ignoring case on Windows), or equal through the mapped drives (a drive
// path and its UNC path; two drives mapped to the same share).
func SamePlace(a, b string) bool {
	if samePath(a, b) {
		return true
	}
	as := append([]string{a}, ShareAliases(a)...)
	bs := append([]string{b}, ShareAliases(b)...)
	for _, x := range as {
		for _, y := range bs {
			if strings.EqualFold(strings.TrimRight(x, `\`), strings.TrimRight(y, `\`)) && (IsUNC(x) || isDrivePath(x)) {
				return true
			}
		}
	}
	return false
}
