package worker

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/extract/libreoffice"
)

// TestClearScratch: the scratch folder is emptied after a file, files and
// folders alike, except LibreOffice's profile; a folder left empty is
// removed (the next file that uses none costs one failing open); a missing folder
// is no error.
func TestClearScratch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string // created under the scratch folder ("/" ends a folder)
		want  []string // left after clearScratch
	}{
		{"empty", nil, nil},
		{"files and folders", []string{"a.txt", "lo-in/", "lo-in/見積.xls", "b/c/d.bin"}, nil},
		{"the profile stays", []string{libreoffice.Profile + "/", libreoffice.Profile + "/user.xcu", "x.pdf"}, []string{libreoffice.Profile}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "x")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(f))
				if f[len(f)-1] == '/' {
					os.MkdirAll(p, 0o755)
					continue
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			clearScratch(dir)
			entries, err := os.ReadDir(dir)
			if tc.want == nil {
				if !os.IsNotExist(err) {
					t.Fatalf("clearScratch left the folder (%d entries, %v), want it removed", len(entries), err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("clearScratch left %q, want %q", got, tc.want)
			}
		})
	}
	clearScratch(filepath.Join(t.TempDir(), "missing"))
}
