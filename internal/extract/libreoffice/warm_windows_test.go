package libreoffice

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A copy of this test binary named python.exe is the fake LibreOffice
// Python of TestFindWarmPartsWindows: it answers `-c "import uno"` with
// success, as LibreOffice's own python.exe does, and anything else with
// failure.
func init() {
	if !strings.EqualFold(filepath.Base(os.Args[0]), "python.exe") {
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "-c" && os.Args[2] == "import uno" {
		os.Exit(0)
	}
	os.Exit(1)
}

// TestFindWarmPartsWindows: with LibreOffice installed under Program Files
// (a fake install tree in a temporary folder: soffice.exe, soffice.bin and
// python.exe in program\), Find returns its soffice.exe, officeBinary the
// soffice.bin beside it (the process the warm converter starts, so that it
// stays in the worker's Job Object) and findPython its python.exe, which
// is run to check that it imports uno. A tree without python.exe has no
// warm converter (cold conversions), one without soffice.bin starts
// soffice.exe itself. Wine runs the discovery and the fake python.exe;
// that a real LibreOffice's python.exe imports uno and that its
// soffice.bin serves the pipe only a real Windows install shows.
func TestFindWarmPartsWindows(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tree := func(parts ...string) (programFiles, program string) {
		programFiles = t.TempDir()
		program = filepath.Join(programFiles, "LibreOffice", "program")
		if err := os.MkdirAll(program, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			if p == "python.exe" {
				copyFile(t, self, filepath.Join(program, p))
				continue
			}
			if err := os.WriteFile(filepath.Join(program, p), []byte("MZ fake"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return programFiles, program
	}
	t.Setenv("PATH", t.TempDir()) // no soffice on PATH
	for _, env := range []string{"ProgramFiles(x86)", "ProgramW6432", "LOCALAPPDATA"} {
		t.Setenv(env, "")
	}
	tests := []struct {
		name       string
		parts      []string
		bin        string // officeBinary's answer, in program\ ("soffice.exe" = soffice itself)
		withPython bool
	}{
		{"full install", []string{"soffice.exe", "soffice.bin", "python.exe"}, "soffice.bin", true},
		{"no python.exe", []string{"soffice.exe", "soffice.bin"}, "soffice.bin", false},
		{"no soffice.bin", []string{"soffice.exe", "python.exe"}, "soffice.exe", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			programFiles, program := tree(tt.parts...)
			t.Setenv("ProgramFiles", programFiles)
			soffice, err := Find()
			if want := filepath.Join(program, "soffice.exe"); err != nil || !strings.EqualFold(soffice, want) {
				t.Fatalf("Find = %q, %v, want %q", soffice, err, want)
			}
			if got, want := officeBinary(soffice), filepath.Join(program, tt.bin); !strings.EqualFold(got, want) {
				t.Errorf("officeBinary = %q, want %q", got, want)
			}
			want := ""
			if tt.withPython {
				want = filepath.Join(program, "python.exe")
			}
			if got := findPython(soffice); !strings.EqualFold(got, want) {
				t.Errorf("findPython = %q, want %q", got, want)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
