package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// mount runs mount(8) with args and unmounts target when the test ends. It
// skips the test when mounting is not permitted (not root, no mount
// namespace privileges, not Linux).
func mount(t *testing.T, target string, args ...string) {
	t.Helper()
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("needs root on Linux to mount a small file system (the fault seam covers the rest)")
	}
	if out, err := exec.Command("mount", append(args, target)...).CombinedOutput(); err != nil {
		t.Skipf("mount %v not permitted here: %v %s", args, err, out)
	}
	t.Cleanup(func() {
		if exec.Command("umount", target).Run() != nil {
			exec.Command("umount", "-l", target).Run()
		}
	})
}

func remount(t *testing.T, target, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, target).CombinedOutput(); err != nil {
		t.Fatalf("remount %s %s: %v %s", target, opts, err, out)
	}
}

// bigTexts writes n text files of about 150 KB, each with its own token.
func bigTexts(f *fixture, n int, tag string) []string {
	var tokens []string
	for i := 0; i < n; i++ {
		tok := fmt.Sprintf("%stok%03d", tag, i)
		var b strings.Builder
		for l := 0; b.Len() < 150<<10; l++ {
			fmt.Fprintf(&b, "%s 行%05d 見積と請求書の控え %d-%d\n", tag, l, i, l*7919%100003)
		}
		b.WriteString(tok + "\n")
		f.write(fmt.Sprintf("d%d/文書%03d.txt", i%3, i), b.String())
		tokens = append(tokens, tok)
	}
	return tokens
}

// checkNoFailures checks that no row is 失敗 or carries an error.
func checkNoFailures(t *testing.T, f *fixture) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(f.ws, "work", "store", "ingest_status.tsv")); err != nil {
		return
	}
	for _, r := range f.list().Rows {
		if r.State == ingestlist.Failed || r.Error != "" {
			t.Errorf("%s recorded as %s (%s) by a workspace fault", r.RelPath, r.State, r.Error)
		}
	}
}

// checkAllDone checks that every file is 済 and found by its token.
func checkAllDone(t *testing.T, f *fixture, n int, tokens []string) {
	t.Helper()
	l := f.list()
	if len(l.Rows) != n {
		t.Errorf("ingest list has %d rows, want %d", len(l.Rows), n)
	}
	for _, r := range l.Rows {
		if r.State != ingestlist.Done {
			t.Errorf("%s: %s (%s)", r.RelPath, r.State, r.Error)
		}
	}
	for _, tok := range tokens {
		if out, _, code := f.run("search", tok); code != 0 || !strings.Contains(out, "文書") {
			t.Errorf("search %s: exit %d, output %q", tok, code, out)
		}
	}
}

// TestIssue15FullDiskTmpfs: a workspace on a 3 MB tmpfs fills up during
// the run (issue 15 item 2 reproduced for real): exit 1 with the Japanese
// message, no file failed; with the space grown the next run finishes every
// file.
func TestIssue15FullDiskTmpfs(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(f.ws, 0o755); err != nil {
		t.Fatal(err)
	}
	mount(t, f.ws, "-t", "tmpfs", "-o", "size=3m", "tmpfs")
	tokens := bigTexts(f, 30, "full")
	f.mustRun("folder", "add", f.root)
	out, errOut, code := f.run("index", "--workers", "2")
	if code != 1 || !strings.Contains(errOut, faultTexts["ENOSPC"]) {
		t.Fatalf("exit %d, want 1 with the disk-full message\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	checkNoFailures(t, f)
	t.Logf("full disk: %s", strings.TrimSpace(errOut))
	done := 0
	for _, r := range f.list().Rows {
		if r.State == ingestlist.Done {
			done++
		}
	}
	t.Logf("%d of 30 files 済 before the disk filled up", done)
	remount(t, f.ws, "size=128m")
	f.mustRun("index", "--workers", "2")
	checkAllDone(t, f, 30, tokens)
}

// TestIssue15ReadOnlyWorkspace: the workspace's file system turned
// read-only between two runs (a tmpfs remounted ro): the run stops at once
// with the read-only message and changes nothing; writable again, the next
// run takes the changed files.
func TestIssue15ReadOnlyWorkspace(t *testing.T) {
	f := newFixture(t)
	if err := os.MkdirAll(f.ws, 0o755); err != nil {
		t.Fatal(err)
	}
	mount(t, f.ws, "-t", "tmpfs", "-o", "size=64m", "tmpfs")
	bigTexts(f, 6, "old")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--workers", "2")
	tokens := bigTexts(f, 6, "newer") // every file changed (size too)
	remount(t, f.ws, "ro")
	out, errOut, code := f.run("index", "--workers", "2")
	if code != 1 || !strings.Contains(errOut, faultTexts["EROFS"]) {
		t.Fatalf("exit %d, want 1 with the read-only message\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	checkNoFailures(t, f)
	remount(t, f.ws, "rw")
	f.mustRun("index", "--workers", "2")
	checkAllDone(t, f, 6, tokens)
}

// TestIssue15SplitWorkspace: store/content on another mount than work/tmp
// (a bind mount) makes the swap of a large file's per-file folder fail
// with EXDEV (small files go through the batch file and swap nothing,
// issue 35): that is the workspace's fault, the run stops with its
// message and no file fails; put back on one file system, the next run
// takes every file.
func TestIssue15SplitWorkspace(t *testing.T) {
	f := newFixture(t)
	bigTexts(f, 6, "old")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index", "--workers", "2")
	tokens := bigTexts(f, 6, "newer")
	// Over content.InlineMax (4 MiB of place TSVs): its places take the
	// per-file folder, which is swapped from work/tmp into store/content.
	var large strings.Builder
	for l := 0; large.Len() < 5<<20; l++ {
		fmt.Fprintf(&large, "大きい文書 行%06d 見積と請求書の控え %d\n", l, l*7919%100003)
	}
	large.WriteString("largetok 文書\n")
	f.write("d0/大きい文書.txt", large.String())
	tokens = append(tokens, "largetok")
	content := filepath.Join(f.ws, "work", "store", "content")
	mount(t, content, "--bind", content)
	out, errOut, code := f.run("index", "--workers", "2")
	if code != 1 || !strings.Contains(errOut, "別のドライブ（マウント）に分かれていて") {
		t.Fatalf("exit %d, want 1 with the split-workspace message\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	checkNoFailures(t, f)
	if out, err := exec.Command("umount", content).CombinedOutput(); err != nil {
		t.Fatalf("umount: %v %s", err, out)
	}
	f.mustRun("index", "--workers", "2")
	checkAllDone(t, f, 7, tokens)
}
