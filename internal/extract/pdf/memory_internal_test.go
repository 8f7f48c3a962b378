package pdf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
)

// envBombHelper makes TestBombHelper read the bomb with the cap it holds
// (bytes, 0 = none) and print the message it gets.
const envBombHelper = "FUMIBAKO_PDF_BOMB_CAP"

// TestBombHelper is the process TestIssue36XObjectBomb measures: it reads
// testdata/xobject-bomb.pdf as a worker with the given cap would.
func TestBombHelper(t *testing.T) {
	capStr := os.Getenv(envBombHelper)
	if capStr == "" {
		t.Skip("helper process of TestIssue36XObjectBomb")
	}
	memLimit, _ := strconv.ParseInt(capStr, 10, 64)
	_, err := read(context.Background(), filepath.Join("testdata", "xobject-bomb.pdf"), extract.Options{Scratch: t.TempDir(), MemLimit: memLimit})
	var xerr *extract.Error
	switch {
	case err == nil:
		fmt.Println("RESULT: read")
	case errors.As(err, &xerr):
		fmt.Printf("RESULT: %s\nCAUSE: %v\n", xerr.Msg, xerr.Cause)
	default:
		fmt.Printf("RESULT: %v\n", err)
	}
	// The engine still reads an ordinary document afterwards.
	if _, err := read(context.Background(), filepath.Join("testdata", "lo-horizontal.pdf"), extract.Options{Scratch: t.TempDir(), MemLimit: memLimit}); err != nil {
		fmt.Printf("AFTER: %v\n", err)
	}
	if peak := ownPeak(); peak > 0 {
		fmt.Printf("PEAK: %d\n", peak)
	}
}

// ownPeak is this process's peak resident memory since it started, in
// bytes (VmHWM of /proc/self/status), or 0 where there is none: the
// parent's getrusage of a child counts the parent's own size at the fork
// (Go's os/exec starts children with vfork), which a package's earlier
// tests make large.
func ownPeak() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestIssue36XObjectBomb: a form-XObject bomb (testdata/genbomb.go: 32^7
// text objects in 3 KB) ends as the memory message whatever the worker's
// cap, none included (--worker-memory -1, and macOS, where no cap is
// enforced), and the reading process stays within the engine's bound plus
// the Go side. Before, the module's 1 GiB limit cost 3.9 GiB of resident
// memory (every grow copied the memory) and the trap that ended it read as
// a broken file.
func TestIssue36XObjectBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a bomb to its memory bound")
	}
	tests := []struct {
		name     string
		memLimit int64
		maxRSS   int64 // the reading process's peak resident memory
	}{
		{"no cap", 0, memFixed + 400<<20},
		{"cap 512 MiB", 512 << 20, 512<<20/memShareDivisor + 400<<20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := exec.Command(os.Args[0], "-test.run=^TestBombHelper$", "-test.v")
			c.Env = append(os.Environ(), envBombHelper+"="+strconv.FormatInt(tt.memLimit, 10))
			start := time.Now()
			out, err := c.CombinedOutput()
			if err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			result := ""
			peak := peakRSS(c)
			for _, l := range strings.Split(string(out), "\n") {
				if p, ok := strings.CutPrefix(l, "PEAK: "); ok {
					peak, _ = strconv.ParseInt(p, 10, 64)
				}
				if r, ok := strings.CutPrefix(l, "RESULT: "); ok {
					result = r
				}
				if a, ok := strings.CutPrefix(l, "AFTER: "); ok {
					t.Errorf("an ordinary document after the bomb: %s", a)
				}
			}
			if result != extract.MsgOutOfMemory {
				t.Errorf("bomb: %q, want %q\n%s", result, extract.MsgOutOfMemory, out)
			}
			t.Logf("bomb with cap %d: %s, peak RSS %d MiB", tt.memLimit, time.Since(start).Round(time.Millisecond), peak>>20)
			if peak > tt.maxRSS {
				t.Errorf("peak RSS %d MiB, want at most %d MiB", peak>>20, tt.maxRSS>>20)
			}
		})
	}
}
