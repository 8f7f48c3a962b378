package ocr

import (
	"context"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A copy of this test binary named tesseract.exe is the fake Tesseract of
// TestFindTesseractWindows: it answers the invocations of doc.go as
// Tesseract 5 does (--version, --list-langs, the TSV call with one word),
// and anything else with failure.
func init() {
	if !strings.EqualFold(filepath.Base(os.Args[0]), "tesseract.exe") {
		return
	}
	args := strings.Join(os.Args[1:], " ")
	switch {
	case args == "--version":
		fmt.Println("tesseract v5.3.3.20231005")
	case args == "--list-langs":
		fmt.Println(`List of available languages in "C:\Program Files\Tesseract-OCR/tessdata/" (4):`)
		fmt.Println("eng\njpn\njpn_vert\nosd")
	case strings.HasSuffix(args, "stdout --psm 0"):
		fmt.Println("Rotate: 0\nOrientation confidence: 9.00")
	case strings.HasSuffix(args, "stdout -l jpn+eng --psm 3 tsv"):
		fmt.Print(tsvHeader + "5\t1\t1\t1\t1\t1\t0\t0\t9\t9\t96.1\t請求書\r\n")
	default:
		os.Exit(1)
	}
	os.Exit(0)
}

// TestFindTesseractWindows: Tesseract is found at the settings path (a
// folder outside PATH and the install places), else where the UB Mannheim
// installer puts it (%ProgramFiles%\Tesseract-OCR, per user
// %LOCALAPPDATA%\Programs\Tesseract-OCR); New checks its languages and
// Recognize runs it as a child and reads its TSV. Wine runs the discovery
// and the fake tesseract.exe; a real Tesseract's output on Windows only a
// real install shows.
func TestFindTesseractWindows(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	install := func(dir string) string {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "tesseract.exe")
		copyFile(t, self, p)
		return p
	}
	t.Setenv("PATH", t.TempDir())
	for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "ProgramW6432", "LOCALAPPDATA"} {
		t.Setenv(env, t.TempDir())
	}
	saved := candidates
	defer func() { candidates = saved }()
	candidates = func() []string { // the fixed C:\ places are the machine's
		var out []string
		for _, c := range installPlaces() {
			if !strings.HasPrefix(strings.ToUpper(c), `C:\PROGRAM FILES`) {
				out = append(out, c)
			}
		}
		return out
	}
	if p, err := Find(""); err == nil {
		t.Fatalf("Find with nothing installed = %q", p)
	}
	settings := install(filepath.Join(t.TempDir(), "ツール", "OCR"))
	user := install(filepath.Join(os.Getenv("LOCALAPPDATA"), "Programs", "Tesseract-OCR"))
	for _, tc := range []struct {
		name, configured, want string
	}{
		{"settings path", settings, settings},
		{"per-user install", "", user},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Find(tc.configured)
			if err != nil || !strings.EqualFold(p, tc.want) {
				t.Fatalf("Find(%q) = %q, %v, want %q", tc.configured, p, err, tc.want)
			}
			e, err := New(p, t.TempDir())
			if err != nil {
				t.Fatalf("New = %v", err)
			}
			if !strings.HasPrefix(e.Version(), "tesseract") {
				t.Errorf("Version = %q", e.Version())
			}
			lines, err := e.Recognize(context.Background(), image.NewGray(image.Rect(0, 0, 30, 20)))
			if err != nil || !slices.Equal(lines, []string{"請求書"}) {
				t.Errorf("Recognize = %q, %v, want [請求書]", lines, err)
			}
		})
	}
	machine := install(filepath.Join(os.Getenv("ProgramFiles"), "Tesseract-OCR"))
	if p, err := Find(""); err != nil || !strings.EqualFold(p, machine) {
		t.Errorf("Find with a machine-wide install = %q, %v, want %q", p, err, machine)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
