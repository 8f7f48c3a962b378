package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// testBinary is fumibako built with -tags testhooks (the fault hooks of
// package worker), shared by the end-to-end tests.
var testBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fumibako-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBinary = filepath.Join(dir, "fumibako")
	if runtime.GOOS == "windows" {
		testBinary += ".exe"
	}
	if p := os.Getenv("FUMIBAKO_E2E_BINARY"); p != "" {
		// Built beforehand: the Windows test lane runs this binary under
		// Wine, where there is no Go toolchain.
		testBinary = p
	} else if out, err := testcorpus.GoBuild("build", "-tags", "testhooks", "-o", testBinary, "."); err != nil {
		fmt.Fprintf(os.Stderr, "build test binary: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixture is a workspace with one registered root.
type fixture struct {
	t    testing.TB
	ws   string
	root string
	env  []string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{t: t, ws: filepath.Join(base, "ws"), root: filepath.Join(base, "共有", "営業")}
	if err := os.MkdirAll(f.root, 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

// cmd returns an exec.Cmd running fumibako on the fixture's workspace.
func (f *fixture) cmd(args ...string) *exec.Cmd {
	c := exec.Command(testBinary, append([]string{"--workspace", f.ws}, args...)...)
	c.Env = append(os.Environ(), f.env...)
	return c
}

// run runs fumibako and returns stdout, stderr and the exit code.
func (f *fixture) run(args ...string) (string, string, int) {
	f.t.Helper()
	out, errOut, code, err := runCmd(f.cmd(args...))
	if err != nil {
		f.t.Fatalf("run %v: %v", args, err)
	}
	return out, errOut, code
}

// runCmd runs c and returns its stdout, stderr and exit code; err is set
// only when it could not be run at all (any goroutine may call it).
func runCmd(c *exec.Cmd) (stdout, stderr string, code int, err error) {
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err = c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code, err = ee.ExitCode(), nil
	}
	return out.String(), errb.String(), code, err
}

func (f *fixture) mustRun(args ...string) string {
	f.t.Helper()
	out, errOut, code := f.run(args...)
	if code != 0 {
		f.t.Fatalf("fumibako %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
	}
	return out
}

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) list() *ingestlist.List {
	f.t.Helper()
	l, err := ingestlist.ReadFile(filepath.Join(f.ws, "work", "store", "ingest_status.tsv"))
	if err != nil {
		f.t.Fatal(err)
	}
	return l
}

func (f *fixture) row(rel string) ingestlist.Row {
	f.t.Helper()
	r, ok := f.list().Lookup(`営業\` + strings.ReplaceAll(rel, "/", `\`))
	if !ok {
		f.t.Fatalf("no ingest-list row for %s", rel)
	}
	return r
}

func (f *fixture) log() string {
	data, _ := os.ReadFile(filepath.Join(f.ws, "work", "indexing_log.txt"))
	return string(data)
}

// checksums returns the SHA-256 and mtime of every file under dir.
func checksums(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		out[p] = fmt.Sprintf("%x %s", sha256.Sum256(data), info.ModTime().Format(time.RFC3339Nano))
		return nil
	})
	return out
}

// leftovers lists staging, scratch and temporary files that must not
// survive a finished run.
func leftovers(t testing.TB, ws string) []string {
	t.Helper()
	var out []string
	work := filepath.Join(ws, "work")
	filepath.WalkDir(work, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(work, p)
		switch {
		case strings.HasSuffix(p, ".tmp"), strings.HasPrefix(d.Name(), ".old-"):
			out = append(out, rel)
		case d.IsDir() && filepath.Dir(p) == filepath.Join(work, "tmp"):
			out = append(out, rel)
		case !d.IsDir() && d.Name() == ".places":
			out = append(out, rel) // an unpublished per-file folder
		case !d.IsDir() && filepath.Dir(p) == filepath.Join(work, "store", "batch"):
			out = append(out, rel) // a batch file left (issue 35)
		}
		return nil
	})
	return out
}
