//go:build !linux

package watch

// networkFS: on Windows, ReadDirectoryChangesW reports changes on SMB
// shares made by other machines; macOS's kqueue watches the files it
// opened. Neither needs the Linux fallback.
func networkFS(string) string { return "" }
