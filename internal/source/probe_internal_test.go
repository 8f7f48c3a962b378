package source

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFolderProbeHungShare: a root whose stat hangs (a network share gone
// silent) shows as checking, and however many polls come meanwhile only
// one stat of it runs; once it answers, the next poll shows the result.
func TestFolderProbeHungShare(t *testing.T) {
	dir := t.TempDir()
	hung := filepath.Join(dir, "共有")
	missing := filepath.Join(dir, "ない")
	release := make(chan struct{})
	var hungStats atomic.Int32
	p := &Prober{stat: func(path string) (os.FileInfo, error) {
		if path == hung {
			hungStats.Add(1)
			<-release
		}
		return os.Stat(path)
	}}
	roots := []string{dir, hung, missing}
	var wg sync.WaitGroup
	results := make([][]Reach, 8)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = p.Check(roots, 300*time.Millisecond)
		}(i)
	}
	wg.Wait()
	for i, got := range results {
		if want := []Reach{ReachOK, ReachChecking, ReachMissing}; !slices.Equal(got, want) {
			t.Errorf("poll %d while the share hangs = %v, want %v", i, got, want)
		}
	}
	if n := hungStats.Load(); n != 1 {
		t.Errorf("%d stats of the hung share ran, want 1", n)
	}
	if err := os.Mkdir(hung, 0o755); err != nil {
		t.Fatal(err)
	}
	close(release)
	// The hung stat ends and a fresh one answers the next poll.
	for {
		p.mu.Lock()
		left := len(p.inflight)
		p.mu.Unlock()
		if left == 0 {
			break
		}
		runtime.Gosched()
	}
	if got, want := p.Check(roots, 300*time.Millisecond), []Reach{ReachOK, ReachOK, ReachMissing}; !slices.Equal(got, want) {
		t.Errorf("after the share answered = %v, want %v", got, want)
	}
}

// TestProbeReached: opening a hit waits for its network folder only so
// long; a silent share is "not answered", a missing one answered.
func TestProbeReached(t *testing.T) {
	dir := t.TempDir()
	release := make(chan struct{})
	defer close(release)
	p := &Prober{stat: func(path string) (os.FileInfo, error) {
		if filepath.Base(path) == "silent" {
			<-release
		}
		return os.Stat(path)
	}}
	for _, tt := range []struct {
		path         string
		ok, answered bool
	}{
		{dir, true, true},
		{filepath.Join(dir, "ない"), false, true},
		{filepath.Join(dir, "silent"), false, false},
	} {
		ok, answered := p.Reached(tt.path, 50*time.Millisecond)
		if ok != tt.ok || answered != tt.answered {
			t.Errorf("Reached(%s) = %v, %v, want %v, %v", tt.path, ok, answered, tt.ok, tt.answered)
		}
	}
}
