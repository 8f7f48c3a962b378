package source

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// ReadOnlyDir is the folder under the workspace's tmp where read-only
// copies are made (work/tmp/readonly).
func ReadOnlyDir(tmpRoot string) string { return filepath.Join(tmpRoot, "readonly") }

// copyKeep is how long a read-only copy is kept: the application may
// still have it open.
const copyKeep = 24 * time.Hour

// ReadOnlyCopy is how a macro-capable file of a received index is opened
// read-only on every system (reference/search.md §9 asks for read-only or
// nothing): the file is copied into dir/<random>/<its name>, the copy
// gets the read-only attribute (mode 0444), and on Windows the Internet
// zone's mark (Zone.Identifier, ZoneId=3, motw_windows.go), so Office
// opens it read-only and in Protected View, with macros off, and nothing
// it does can write to the original. The desktop's default application
// then opens the copy. Copies older than a day are removed first. Any
// failure is returned, and the caller then does not open the file.
func ReadOnlyCopy(dir, src string) (string, error) {
	removeOldCopies(dir)
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("source: read-only copy of %s: %w", src, err)
	}
	sub := filepath.Join(dir, hex.EncodeToString(b[:]))
	if err := workspace.MkdirAll(sub); err != nil {
		return "", fmt.Errorf("source: read-only copy of %s: %w", src, err)
	}
	dst := filepath.Join(sub, filepath.Base(src))
	if err := copyFile(src, dst); err != nil {
		workspace.RemoveAll(sub)
		return "", err
	}
	if err := markInternetZone(dst); err != nil {
		workspace.RemoveAll(sub)
		return "", fmt.Errorf("source: mark %s: %w", dst, err)
	}
	if err := os.Chmod(dst, 0o444); err != nil {
		workspace.RemoveAll(sub)
		return "", fmt.Errorf("source: make %s read-only: %w", dst, err)
	}
	if st, err := os.Stat(dst); err != nil || st.Mode().Perm()&0o222 != 0 {
		workspace.RemoveAll(sub)
		return "", fmt.Errorf("source: %s is not read-only", dst)
	}
	return dst, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("source: read-only copy of %s: %w", src, err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("source: read-only copy of %s: %w", src, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("source: read-only copy of %s: %w", src, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("source: read-only copy of %s: %w", src, err)
	}
	if st, err := in.Stat(); err == nil {
		os.Chtimes(dst, st.ModTime(), st.ModTime())
	}
	return nil
}

// removeOldCopies deletes the copies made more than copyKeep ago (their
// read-only attribute is taken off first, which Windows needs).
func removeOldCopies(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < copyKeep {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		files, _ := os.ReadDir(sub)
		for _, f := range files {
			os.Chmod(filepath.Join(sub, f.Name()), 0o644)
		}
		workspace.RemoveAll(sub)
	}
}
