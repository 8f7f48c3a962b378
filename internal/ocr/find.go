package ocr

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// ErrNotFound is returned by Find when no Tesseract is found.
var ErrNotFound = errors.New("ocr: tesseract not found")

// MsgNotFound is the run's line when OCR is wanted and no engine is there
// (pages that need OCR wait for it, issue 29).
const MsgNotFound = "Tesseract が見つからないため画像の文字を読み取れません（Tesseract を入れると次のインデックス作成で読み取ります）"

// Find returns the path of the tesseract program: configured (the
// settings path) when it names a file, else tesseract on PATH, else the
// usual install places. A configured path that is no file is not an
// error by itself: the user may have uninstalled it and installed
// Tesseract elsewhere, which is then found.
func Find(configured string) (string, error) {
	if configured != "" && isFile(configured) {
		return configured, nil
	}
	if p, err := exec.LookPath("tesseract"); err == nil {
		return p, nil
	}
	for _, c := range candidates() { // a var: tests empty it
		if isFile(c) {
			return c, nil
		}
	}
	return "", ErrNotFound
}

// candidates are the install places outside PATH; the UB Mannheim
// installer, the usual one on Windows, does not add itself to PATH.
var candidates = installPlaces

func installPlaces() []string {
	var out []string
	switch runtime.GOOS {
	case "windows":
		for _, env := range []string{"ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"} {
			if d := os.Getenv(env); d != "" {
				out = append(out, filepath.Join(d, "Tesseract-OCR", "tesseract.exe"))
			}
		}
		if d := os.Getenv("LOCALAPPDATA"); d != "" {
			out = append(out, filepath.Join(d, "Programs", "Tesseract-OCR", "tesseract.exe"),
				filepath.Join(d, "Tesseract-OCR", "tesseract.exe"))
		}
		out = append(out, `C:\Program Files\Tesseract-OCR\tesseract.exe`, `C:\Program Files (x86)\Tesseract-OCR\tesseract.exe`)
	case "darwin":
		out = append(out, "/opt/homebrew/bin/tesseract", "/usr/local/bin/tesseract", "/opt/local/bin/tesseract")
	default:
		out = append(out, "/usr/bin/tesseract", "/usr/local/bin/tesseract", "/snap/bin/tesseract")
	}
	return out
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
