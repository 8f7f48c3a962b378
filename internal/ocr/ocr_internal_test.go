package ocr

import (
	"context"
	"errors"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/testutil"
)

// fakeTesseract writes a program that answers the invocations of doc.go
// the way Tesseract does: --version, --list-langs (langs), the OSD call
// and the TSV call (tsv, or a sleep when tsv is "sleep"). Unix only: the
// Windows lane has its own (find_windows_test.go).
func fakeTesseract(t *testing.T, dir, langs, tsv string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake program is a shell script")
	}
	body := "printf '" + strings.ReplaceAll(tsvHeader+tsv, "\t", `\t`) + "'"
	if tsv == "sleep" {
		body = "exec sleep 30"
	}
	script := `#!/bin/sh
case "$1" in
--version) echo "tesseract 5.3.0"; echo " leptonica-1.82.0" ;;
--list-langs) echo 'List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (4):'
  for l in ` + langs + `; do echo $l; done ;;
*) case "$*" in
  *"--psm 0"*) echo "Rotate: 0"; echo "Orientation confidence: 9.0" ;;
  *"-l jpn+eng --psm 3 tsv"*) ` + body + ` ;;
  *) echo "unexpected call: $*" >&2; exit 1 ;;
  esac ;;
esac
`
	p := filepath.Join(dir, "tesseract")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFind: the settings path first, then PATH, then the install places;
// none: ErrNotFound.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	fake := fakeTesseract(t, dir, "jpn", "")
	other := filepath.Join(t.TempDir(), "tesseract")
	os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755)
	saved := candidates
	defer func() { candidates = saved }()
	candidates = func() []string { return []string{other} }
	for _, tc := range []struct {
		name, configured, path, want string
	}{
		{"settings path", fake, "", fake},
		{"settings path wins over PATH", fake, filepath.Dir(other), fake},
		{"settings path gone: PATH", filepath.Join(dir, "gone.exe"), dir, fake},
		{"PATH", "", dir, fake},
		{"install place", "", t.TempDir(), other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			if got, err := Find(tc.configured); got != tc.want || err != nil {
				t.Errorf("Find(%q) = %q, %v, want %q", tc.configured, got, err, tc.want)
			}
		})
	}
	candidates = func() []string { return nil }
	t.Setenv("PATH", t.TempDir())
	if got, err := Find(""); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find with nothing installed = %q, %v, want ErrNotFound", got, err)
	}
}

// TestNew: New checks the version and the languages; Recognize runs the
// TSV call and keeps its words.
func TestNew(t *testing.T) {
	words := "5\t1\t1\t1\t1\t1\t0\t0\t9\t9\t95.5\t請求\n5\t1\t1\t1\t1\t2\t0\t0\t9\t9\t91\t書\n"
	for _, tc := range []struct {
		name, langs string
		err         error
	}{
		{"all languages", "eng jpn jpn_vert osd", nil},
		{"without osd", "eng jpn jpn_vert", nil},
		{"no jpn_vert", "eng jpn osd", ErrLanguages},
		{"no jpn", "eng", ErrLanguages},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := fakeTesseract(t, t.TempDir(), tc.langs, words)
			e, err := New(p, t.TempDir())
			if !errors.Is(err, tc.err) {
				t.Fatalf("New = %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if e.Version() != "tesseract 5.3.0" {
				t.Errorf("Version = %q", e.Version())
			}
			lines, err := e.Recognize(context.Background(), image.NewGray(image.Rect(0, 0, 20, 10)))
			if err != nil || !slices.Equal(lines, []string{"請求書"}) {
				t.Errorf("Recognize = %q, %v, want [請求書]", lines, err)
			}
		})
	}
	notTesseract := filepath.Join(t.TempDir(), "tesseract")
	os.WriteFile(notTesseract, []byte("#!/bin/sh\necho hello\n"), 0o755)
	if _, err := New(notTesseract, t.TempDir()); err == nil {
		t.Errorf("New(a program that is no tesseract) succeeded")
	}
	if v, err := Version(notTesseract); err == nil {
		t.Errorf("Version(no tesseract) = %q", v)
	}
}

// TestRecognizeCancelled: the deadline kills Tesseract and what it
// started, at once; the scratch folder keeps no page image.
func TestRecognizeCancelled(t *testing.T) {
	scratch := t.TempDir()
	e, err := New(fakeTesseract(t, t.TempDir(), "eng jpn jpn_vert", "sleep"), scratch)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = e.Recognize(ctx, image.NewGray(image.Rect(0, 0, 20, 10)))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 4*time.Second {
		t.Errorf("Recognize = %v after %v, want the deadline at once", err, time.Since(start))
	}
	if left := testutil.ChildrenOf(os.Getpid()); len(left) > 0 {
		t.Errorf("children left: %v", left)
	}
	if m, _ := filepath.Glob(filepath.Join(scratch, "*")); len(m) > 0 {
		t.Errorf("scratch keeps %v", m)
	}
}

// TestKey: a key names the pixels, whatever image type holds them, and
// the settings version.
func TestKey(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 4, 3))
	rgba := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 20)
		rgba.Set(i%4, i/4, color.RGBA{uint8(i * 20), uint8(i * 20), uint8(i * 20), 255})
	}
	moved := image.NewGray(image.Rect(10, 10, 14, 13))
	copy(moved.Pix, g.Pix)
	other := image.NewGray(image.Rect(0, 0, 4, 3))
	copy(other.Pix, g.Pix)
	other.Pix[5]++
	tall := image.NewGray(image.Rect(0, 0, 3, 4))
	copy(tall.Pix, g.Pix)
	nrgba := image.NewNRGBA(rgba.Rect)
	for i := range g.Pix {
		nrgba.Set(i%4, i/4, color.NRGBA{uint8(i * 20), uint8(i * 20), uint8(i * 20), 255})
	}
	k := Key(g)
	if len(k) != 64 || Key(rgba) != k || Key(moved) != k || Key(nrgba) != k {
		t.Errorf("the same pixels keyed differently: %s %s %s %s", k, Key(rgba), Key(moved), Key(nrgba))
	}
	// Transparency is paper, and the RGBA fast path gives the generic
	// path's levels.
	half := image.NewRGBA(image.Rect(0, 0, 3, 1))
	half.Set(0, 0, color.NRGBA{40, 80, 120, 128})
	half.Set(1, 0, color.NRGBA{0, 0, 0, 0})
	half.Set(2, 0, color.NRGBA{200, 10, 90, 255})
	fast, generic := Gray(half).Pix, Gray(hidden{half}).Pix
	if !slices.Equal(fast, generic) || fast[0] < 128 || fast[1] != 255 {
		t.Errorf("RGBA levels %v, generic %v; want equal, light, white", fast, generic)
	}
	if Key(other) == k || Key(tall) == k {
		t.Errorf("other pixels keyed the same")
	}
}

// hidden hides an image's type, so Gray takes its generic path.
type hidden struct{ image.Image }
