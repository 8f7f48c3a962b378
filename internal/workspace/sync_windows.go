//go:build windows

package workspace

func syncDir(dir string) error { return nil }
