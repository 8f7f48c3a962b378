package libreoffice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/fumibako/fumibako/internal/proctree"
)

// LibreOffice conversion (DESIGN.md "Extraction": .xls .xlsb .doc .ppt are
// converted by LibreOffice and read as OOXML).
//
// One conversion is one soffice process:
//
//	soffice --headless --norestore --nolockcheck
//	        -env:UserInstallation=file://<scratch>/lo-profile
//	        [--infilter=<import filter>]
//	        --convert-to <target>:<filter> --outdir <scratch>/<out> <inputs…>
//
// run in the folder of the inputs, which are copies in the scratch folder
// (LibreOffice never sees, locks or writes next to a source file). The
// profile is private to the scratch folder, so concurrent workers never
// hand their files to each other's LibreOffice; creating it costs a few
// seconds, so a caller that keeps <scratch>/lo-profile between files
// (Profile) saves that on every later file. The profile is set
// to the Japanese locale before its first use (locale.go), so that
// locale-bound formats convert as a Japanese Excel shows them. soffice
// exits with 0 even when it could not load a file: success is the output
// file existing.
//
// The child is started with exec.CommandContext and stays in the caller's
// process group, so a worker killed with its group takes LibreOffice along.
// On Linux soffice is a script that execs oosplash, which forks soffice.bin;
// cancelling ctx therefore kills the whole process tree below the child,
// not just the child.

// Profile is the folder inside the scratch folder that holds
// LibreOffice's private profile.
const Profile = "lo-profile"

// Export filters per target extension; the explicit filter also lets
// LibreOffice export HTML and RTF documents opened by its web or text
// components.
var filters = map[string]string{
	"xlsx": "Calc MS Excel 2007 XML",
	"docx": "MS Word 2007 XML",
	"pptx": "Impress MS PowerPoint 2007 XML",
}

// ErrNotFound is returned by Find when no soffice is found.
var ErrNotFound = errors.New("extract: LibreOffice (soffice) not found")

// find is Find; tests replace it.
var find = Find

// Find returns the path of LibreOffice's soffice: soffice or
// libreoffice on PATH, else the usual install folders of Windows, macOS
// and Linux.
func Find() (string, error) {
	for _, name := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	var candidates []string
	switch runtime.GOOS {
	case "windows":
		for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "ProgramW6432", "LOCALAPPDATA"} {
			if d := os.Getenv(env); d != "" {
				candidates = append(candidates, filepath.Join(d, "LibreOffice", "program", "soffice.exe"))
			}
		}
		candidates = append(candidates,
			`C:\Program Files\LibreOffice\program\soffice.exe`,
			`C:\Program Files (x86)\LibreOffice\program\soffice.exe`)
	case "darwin":
		candidates = append(candidates, "/Applications/LibreOffice.app/Contents/MacOS/soffice")
		if h, err := os.UserHomeDir(); err == nil {
			candidates = append(candidates, filepath.Join(h, "Applications", "LibreOffice.app", "Contents", "MacOS", "soffice"))
		}
	default:
		candidates = append(candidates, "/usr/lib/libreoffice/program/soffice", "/usr/lib64/libreoffice/program/soffice",
			"/usr/local/lib/libreoffice/program/soffice", "/snap/bin/libreoffice")
		if m, _ := filepath.Glob("/opt/libreoffice*/program/soffice"); len(m) > 0 {
			candidates = append(candidates, m[len(m)-1])
		}
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, nil
		}
	}
	return "", ErrNotFound
}

// FileURL turns an absolute path into a file:// URL for -env options.
func FileURL(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// failure describes a conversion that produced no output.
type failure struct {
	output string // what soffice printed, cut
}

func (e *failure) Error() string {
	out := strings.Join(strings.Fields(e.output), " ")
	if out == "" {
		return "libreoffice produced no output file"
	}
	return "libreoffice produced no output file: " + out
}

// outputCap bounds what is kept of soffice's stdout and stderr.
const outputCap = 16 << 10

type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *output) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := outputCap - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *output) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// run converts the files named in inputs (names inside dir) to
// target with one soffice process writing into outdir, and returns what it
// printed. infilter, unless "", forces LibreOffice's import filter. The
// profile is made to carry locale first (locale.go). It returns ctx's error when ctx ends first; the process tree is
// killed then.
func run(ctx context.Context, soffice, dir string, inputs []string, target, infilter, outdir, profile string) (string, error) {
	filter, ok := filters[target]
	if !ok {
		return "", fmt.Errorf("extract: unknown conversion target %q", target)
	}
	if err := os.MkdirAll(outdir, 0o755); err != nil {
		return "", fmt.Errorf("extract: create conversion folder: %w", err)
	}
	if err := ensureLocale(profile); err != nil {
		return "", err
	}
	args := []string{"--headless", "--norestore", "--nolockcheck",
		"-env:UserInstallation=" + FileURL(profile)}
	if infilter != "" {
		args = append(args, "--infilter="+infilter)
	}
	args = append(args, "--convert-to", target+":"+filter, "--outdir", outdir)
	args = append(args, inputs...)
	cmd := proctree.Command(ctx, soffice, args...)
	cmd.SysProcAttr = nil // a one-shot conversion stays as it always ran
	cmd.Dir = dir
	var out output
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if cerr := ctx.Err(); cerr != nil {
		return out.String(), fmt.Errorf("extract: libreoffice conversion stopped: %w", cerr)
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return out.String(), fmt.Errorf("extract: start libreoffice %s: %w", soffice, err)
		}
		// A non-zero exit still may have converted some files; the caller
		// looks for the outputs.
	}
	return out.String(), nil
}

// Copy copies src to dst, opening src read-only.
func Copy(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("extract: open %s: %w", src, err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("extract: create scratch copy: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("extract: copy %s to scratch: %w", src, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("extract: close scratch copy: %w", err)
	}
	return nil
}

// ConvertBatch converts files of one kind to target ("xlsx", "docx" or
// "pptx") with a single soffice process, which saves LibreOffice's start-up
// (several seconds) on every file but the first. Each file is copied into
// <scratch>/batch-in under a numbered name; the result maps each input path
// to its converted file in <scratch>/batch-out. A file LibreOffice could not
// convert is missing from the map; read the others with ReadConverted.
// The error is for the batch as a whole: ctx ended (the process tree is
// killed), a copy failed, or soffice could not be started. A file that
// hangs LibreOffice stalls the whole batch, so callers give the batch a
// deadline and convert its files one by one when it passes.
func ConvertBatch(ctx context.Context, soffice string, files []string, target, scratch string) (map[string]string, error) {
	in := filepath.Join(scratch, "batch-in")
	out := filepath.Join(scratch, "batch-out")
	for _, d := range []string{in, out} {
		if err := os.RemoveAll(d); err != nil {
			return nil, fmt.Errorf("extract: clear %s: %w", d, err)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("extract: create %s: %w", d, err)
		}
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strconv.Itoa(i+1) + strings.ToLower(filepath.Ext(f))
		if err := Copy(f, filepath.Join(in, names[i])); err != nil {
			return nil, err
		}
	}
	if _, err := run(ctx, soffice, in, names, target, "", out, filepath.Join(scratch, Profile)); err != nil {
		return nil, err
	}
	res := make(map[string]string, len(files))
	for i, f := range files {
		p := filepath.Join(out, strings.TrimSuffix(names[i], filepath.Ext(names[i]))+"."+target)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			res[f] = p
		}
	}
	return res, nil
}
