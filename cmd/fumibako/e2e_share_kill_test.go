package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// receiver is a second workspace with a small crawl root of its own, so
// that `index` runs there (and finishes or cleans a killed import first).
func receiver(t *testing.T, f *fixture) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "受け取った側")
	root := filepath.Join(t.TempDir(), "経理")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "memo.txt"), []byte("経理のメモ\n"), 0o644)
	f.mustRun("--workspace", ws, "folder", "add", root)
	f.mustRun("--workspace", ws, "index")
	return ws
}

// importState says whether the index name is absent from ws (false) or
// whole there (true): its folder, every row, its settings entry and the
// same hits as want. A half index fails the test.
func importState(t *testing.T, f *fixture, ws, name string, rows int, want []string) bool {
	t.Helper()
	_, dirErr := os.Stat(filepath.Join(ws, "work", "store", "content", name))
	n := 0
	for _, r := range listOf(t, ws).Rows {
		if r.IndexName() == name {
			n++
		}
	}
	src := false
	for _, s := range loadSettings2(t, ws).IndexSources {
		src = src || s.Name == name
	}
	if dirErr != nil && n == 0 && !src {
		return false
	}
	if dirErr != nil || n != rows || !src {
		t.Fatalf("%s is half there: folder %v, %d of %d rows, settings entry %v", name, dirErr, n, rows, src)
	}
	if got := hitKeys(t, f, ws, "--folder", name, "見積"); !slices.Equal(got, want) {
		t.Fatalf("%s: %d hits, want %d", name, len(got), len(want))
	}
	return true
}

func TestImportKilledAtRandomMoments(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f, _, zipPath := indexedFixture(t, 150)
	want := hitKeys(t, f, f.ws, "見積")
	rows := len(f.list().Rows)
	ws := receiver(t, f)
	rng := rand.New(rand.NewSource(5))
	// Kill moments spread over a whole import, weighted to its end, where
	// the commit point and the steps after it are.
	start := time.Now()
	f.mustRun("--workspace", ws, "import", zipPath, "--name", "時間")
	full := int(time.Since(start) / time.Millisecond)
	maxDelay := full * 11 / 10
	kills, whole, finished := 0, 0, 0
	for i := 0; i < 80 && kills < 30; i++ {
		name := fmt.Sprintf("受領%02d", i)
		c := f.cmd()
		c.Args = []string{testBinary, "--workspace", ws, "import", zipPath, "--name", name}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- c.Wait() }()
		select {
		case <-exited:
			finished++
			if !importState(t, f, ws, name, rows, want) {
				t.Fatalf("%s: the import finished but the index is not there", name)
			}
			continue
		case <-time.After(time.Duration(killAt(rng, maxDelay)) * time.Millisecond):
			c.Process.Signal(syscall.SIGKILL)
			<-exited
			kills++
		}
		// Before any recovery: the index's folder is absent or whole (its
		// rows and settings entry may still be on their way).
		if _, err := os.Stat(filepath.Join(ws, "work", "store", "content", name)); err == nil {
			if got := hitKeys(t, f, ws, "--folder", name, "見積"); !slices.Equal(got, want) {
				t.Fatalf("%s right after the kill: %d hits, want %d", name, len(got), len(want))
			}
		}
		f.mustRun("--workspace", ws, "index")
		if importState(t, f, ws, name, rows, want) {
			whole++
		}
		if lo := leftovers(t, ws); len(lo) > 0 {
			t.Fatalf("leftovers after the next start: %q", lo)
		}
	}
	t.Logf("import takes %d ms; %d kills: %d imports finished by the next start, %d left nothing; %d finished before their kill",
		full, kills, whole, kills-whole, finished)
	if kills < 8 {
		t.Fatalf("only %d kills", kills)
	}
	// The workspace is sound: another import and a search still work.
	f.mustRun("--workspace", ws, "import", zipPath, "--name", "最後")
	importState(t, f, ws, "最後", rows, want)
}

// killAt picks a kill moment below limit ms: two in three in its last
// third.
func killAt(rng *rand.Rand, limit int) int {
	limit = max(limit, 3)
	if rng.Intn(3) > 0 {
		return limit*2/3 + rng.Intn(limit/3+1)
	}
	return 1 + rng.Intn(limit)
}

// TestImportCrashBetweenSteps kills an import between each two steps after
// its commit point (package share, doc.go): the next start finishes it.
func TestImportCrashBetweenSteps(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f, _, zipPath := indexedFixture(t, 24)
	want := hitKeys(t, f, f.ws, "見積")
	rows := len(f.list().Rows)
	for _, point := range []string{"import-after-pending", "import-after-move-old", "import-after-rename",
		"import-after-summary", "import-after-rows", "import-after-settings"} {
		t.Run(point, func(t *testing.T) {
			ws := receiver(t, f)
			args := []string{"--workspace", ws, "import", zipPath, "--name", "受領"}
			if point == "import-after-move-old" {
				f.mustRun(args...)
				args = append(args, "--overwrite")
			}
			c := f.cmd()
			c.Args = append([]string{testBinary}, args...)
			c.Env = append(c.Env, "FUMIBAKO_TEST_CRASH_AT="+point)
			_, errOut, code, _ := runCmd(c)
			if code != -1 && code != 137 {
				t.Fatalf("import with crash point %s: exit %d\n%s", point, code, errOut)
			}
			out := f.mustRun("--workspace", ws, "index")
			if !strings.Contains(out, "前回中断したインポート（インデックス「受領」）を最後まで行いました。") {
				t.Errorf("the run does not say it finished the import:\n%s", out)
			}
			if !importState(t, f, ws, "受領", rows, want) {
				t.Fatalf("not imported after the next start")
			}
			if lo := leftovers(t, ws); len(lo) > 0 {
				t.Errorf("leftovers: %q", lo)
			}
		})
	}
}

func TestExportKilledAtRandomMoments(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL test")
	}
	f, _, _ := indexedFixture(t, 150)
	before := wsFiles(t, f.ws)
	out := filepath.Join(t.TempDir(), "書き出し.zip")
	rng := rand.New(rand.NewSource(9))
	maxDelay := 300
	kills := 0
	for i := 0; i < 60 && kills < 12; i++ {
		os.Remove(out)
		os.Remove(out + ".tmp")
		c := f.cmd("export", "営業", "--out", out)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- c.Wait() }()
		select {
		case err := <-exited:
			maxDelay = max(10, maxDelay*2/3)
			if err != nil {
				t.Fatalf("export: %v", err)
			}
		case <-time.After(time.Duration(2+rng.Intn(maxDelay)) * time.Millisecond):
			c.Process.Signal(syscall.SIGKILL)
			<-exited
			kills++
			if _, err := os.Stat(out); err == nil {
				// Killed after the rename: the zip must be whole.
				f.mustRun("--workspace", filepath.Join(t.TempDir(), "確認"), "import", out)
			}
		}
		if !mapsEqual(before, wsFiles(t, f.ws)) {
			t.Fatalf("the workspace changed under an export")
		}
	}
	t.Logf("%d kills", kills)
	os.Remove(out)
	f.mustRun("export", "営業", "--out", out) // the lock was not left held
}
