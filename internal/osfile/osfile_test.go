package osfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/osfile"
)

// TestReadAll reads files whose size the caller got right, too small (a
// file that grew since its stat, /proc's 0) and too large, with and
// without a limit: the bytes up to the end, or one past the limit.
func TestReadAll(t *testing.T) {
	dir := t.TempDir()
	body := bytes.Repeat([]byte("文箱 fumibako\n"), 2000) // 32,000 bytes
	path := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	n := int64(len(body))
	for _, c := range []struct {
		name        string
		size, limit int64
		want        int64 // bytes returned
	}{
		{"size right", n, -1, n},
		{"size 0", 0, -1, n},
		{"size too small", 100, -1, n},
		{"size too large", 2 * n, -1, n},
		{"at the limit", n, n, n},
		{"over the limit", n, n - 10, n - 9},
		{"over the limit, size 0", 0, 1000, 1001},
		{"limit 0", n, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := osfile.OpenRead(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := osfile.ReadAll(f, c.size, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(got)) != c.want || !bytes.Equal(got, body[:c.want]) {
				t.Errorf("read %d bytes, want the first %d", len(got), c.want)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 70000} {
		body := bytes.Repeat([]byte{'x'}, size)
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := osfile.ReadFile(path)
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("size %d: read %d bytes, %v", size, len(got), err)
		}
	}
	if _, err := osfile.ReadFile(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
}
