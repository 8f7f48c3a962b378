package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/watch"
)

// watchBound is how long a change may take to become searchable in these
// tests (the design's target is 2 s; the bound only keeps a loaded machine
// from failing them).
const watchBound = 60 * time.Second

// startWatch starts `fumibako watch` and waits until it waits for changes.
func startWatch(t *testing.T, f *fixture) *exec.Cmd {
	t.Helper()
	c := f.cmd("watch", "--workers", "2", "--debounce", "300ms")
	c.Stdout, c.Stderr = os.Stderr, os.Stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	waitWatch(t, "the watcher waits", func() bool { return watchState(f).Doing == watch.DoingWait })
	return c
}

func watchState(f *fixture) watch.Status {
	var st watch.Status
	data, _ := os.ReadFile(filepath.Join(f.ws, "work", "watch.json"))
	json.Unmarshal(data, &st)
	return st
}

func waitWatch(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(watchBound); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("%s: not within %v", what, watchBound)
}

// found reports whether a search for token lists the file rel.
func (f *fixture) found(token, rel string) bool {
	out, _, _ := f.run("search", token)
	return strings.Contains(out, filepath.Join("営業", filepath.FromSlash(rel))+"\t")
}

// TestWatchFollowsChanges: with a real watcher, each change is searchable
// (or gone) within the bound; another process's index gets the lock
// message and status names the watcher.
func TestWatchFollowsChanges(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("watch end-to-end runs on Linux and macOS")
	}
	f := newFixture(t)
	f.write("start.txt", "最初の内容 tokenstart")
	f.mustRun("folder", "add", f.root)
	c := startWatch(t, f)
	if !f.found("tokenstart", "start.txt") {
		t.Fatalf("the start's full run did not ingest start.txt")
	}
	if _, errOut, code := f.run("index"); code != 1 || !strings.Contains(errOut, "ほかのインデックス作成が実行中です") {
		t.Errorf("index while watching: exit %d, stderr %q", code, errOut)
	}
	if out := f.mustRun("status"); !strings.Contains(out, "fumibako watch（PID") {
		t.Errorf("status does not name the watcher:\n%s", out)
	}
	p := func(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }
	steps := []struct {
		name   string
		do     func()
		token  string
		rel    string
		absent bool
	}{
		{"create", func() { f.write("new.txt", "新しい tokennew") }, "tokennew", "new.txt", false},
		{"modify in several writes", func() {
			fh, _ := os.OpenFile(p("new.txt"), os.O_WRONLY|os.O_TRUNC, 0)
			for _, part := range []string{"書き", "かけ ", "tokenmod", " 終わり"} {
				fh.WriteString(part)
				fh.Sync()
				time.Sleep(50 * time.Millisecond)
			}
			fh.Close()
		}, "tokenmod", "new.txt", false},
		{"old text gone after modify", func() {}, "tokennew", "new.txt", true},
		{"rename", func() { os.Rename(p("new.txt"), p("renamed.txt")) }, "tokenmod", "renamed.txt", false},
		{"old name gone after rename", func() {}, "tokenmod", "new.txt", true},
		{"delete", func() { os.Remove(p("start.txt")) }, "tokenstart", "start.txt", true},
		{"new subfolder", func() { f.write("sub/deep/in.txt", "下の tokensub") }, "tokensub", "sub/deep/in.txt", false},
		{"saved through a temp name (Office)", func() {
			os.WriteFile(p("~$book.txt"), []byte("owner"), 0o644) // Excel's lock file: never ingested
			os.WriteFile(p("sub/A1B2C3D4"), []byte("一時 tokenoffice"), 0o644)
			os.Rename(p("sub/A1B2C3D4"), p("sub/book.txt"))
			os.Remove(p("~$book.txt"))
		}, "tokenoffice", "sub/book.txt", false},
		{"folder renamed", func() { os.Rename(p("sub"), p("moved")) }, "tokensub", "moved/deep/in.txt", false},
		{"old folder gone", func() {}, "tokensub", "sub/deep/in.txt", true},
	}
	for _, st := range steps {
		st.do()
		waitWatch(t, st.name, func() bool { return f.found(st.token, st.rel) != st.absent })
	}
	waitWatch(t, "the watcher waits", func() bool { return watchState(f).Doing == watch.DoingWait })
	// SIGTERM stops cleanly: exit 0, the lock and the state file gone.
	c.Process.Signal(syscall.SIGTERM)
	if err := c.Wait(); err != nil {
		t.Fatalf("watch after SIGTERM: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.ws, "work", "watch.json")); !os.IsNotExist(err) {
		t.Errorf("watch.json left after a clean stop: %v", err)
	}
	l := f.list()
	var rels []string
	for _, r := range l.Rows {
		rels = append(rels, r.RelPath+":"+string(r.State))
	}
	want := []string{`営業\moved\book.txt:済`, `営業\moved\deep\in.txt:済`, `営業\renamed.txt:済`}
	if fmt.Sprint(rels) != fmt.Sprint(want) {
		t.Errorf("rows = %q, want %q", rels, want)
	}
}

// TestWatchBurstAndKill: 1,000 new files are ingested in a few runs, not
// 1,000; a SIGKILL of the watcher during a second burst loses nothing:
// the next watcher's start recovers, one row per file, every file found.
func TestWatchBurstAndKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f := newFixture(t)
	f.write("seed.txt", "seed")
	f.mustRun("folder", "add", f.root)
	c := startWatch(t, f)
	runs0 := watchState(f).Runs
	const n = 1000
	for i := range n {
		f.write(fmt.Sprintf("burst/f%04d.txt", i), fmt.Sprintf("burst tok%04dx", i))
	}
	waitWatch(t, "the burst is ingested", func() bool { return countDone(f) == n+1 })
	if runs := watchState(f).Runs - runs0; runs > 10 {
		t.Errorf("a burst of %d files took %d runs, want a few", n, runs)
	}
	for i := range n {
		f.write(fmt.Sprintf("burst2/g%04d.txt", i), fmt.Sprintf("second tok%04dy", i))
	}
	waitWatch(t, "a run of the second burst is under way", func() bool { return watchState(f).Doing == watch.DoingRun })
	time.Sleep(200 * time.Millisecond)
	c.Process.Kill()
	c.Wait()
	c = startWatch(t, f)
	waitWatch(t, "the second burst is ingested after the kill", func() bool { return countDone(f) == 2*n+1 })
	c.Process.Signal(syscall.SIGTERM)
	c.Wait()
	l := f.list()
	if len(l.Rows) != 2*n+1 || len(l.Lines) != len(l.Rows) {
		t.Errorf("ingest list: %d rows, %d lines, want %d each", len(l.Rows), len(l.Lines), 2*n+1)
	}
	for _, i := range []int{0, 499, 999} {
		if !f.found(fmt.Sprintf("tok%04dy", i), fmt.Sprintf("burst2/g%04d.txt", i)) {
			t.Errorf("g%04d.txt not found after the kill and restart", i)
		}
	}
	if lo := leftovers(t, f.ws); len(lo) > 0 {
		t.Errorf("leftovers: %q", lo)
	}
}

func countDone(f *fixture) int {
	l, err := ingestlist.ReadFile(filepath.Join(f.ws, "work", "store", "ingest_status.tsv"))
	if err != nil {
		return -1
	}
	n := 0
	for _, r := range l.Rows {
		if r.State == ingestlist.Done {
			n++
		}
	}
	return n
}
