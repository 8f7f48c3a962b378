//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
)

// TestIssue36QueryLimitCLI: `fumibako search` with 200,000 words "a" (the
// probe's 50,000 took the CLI to 2.2 GiB) is refused as a bad query (exit
// 2) with the query-limit message, with a peak memory far below that.
func TestIssue36QueryLimitCLI(t *testing.T) {
	f := newFixture(t)
	f.mustRun("folder", "add", f.root)
	f.write("a.txt", "a b c\n")
	f.mustRun("index")
	args := append([]string{"search"}, strings.Split(strings.TrimSpace(strings.Repeat("a ", 200000)), " ")...)
	c := f.cmd(args...)
	peak := filepath.Join(t.TempDir(), "peak")
	c.Env = append(c.Env, "FUMIBAKO_TEST_PEAK_RSS="+peak)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	ee, ok := err.(*exec.ExitError)
	// A usage error: the message, then the help hint (issue 32).
	want := fmt.Sprintf(msgErrorHead, fmt.Sprintf(search.MsgQueryTooLong, "4,096")) + "\n" + fmt.Sprintf(msgSeeHelp, "search") + "\n"
	if !ok || ee.ExitCode() != 2 || errb.String() != want || out.Len() != 0 {
		t.Fatalf("search with 200,000 words: %v\nstdout %q\nstderr %q\nwant exit 2 and %q", err, out.String(), errb.String(), want)
	}
	// The process's own peak (exithook_on.go): getrusage's would count the
	// test binary's size at the fork.
	rss := peakOf(t, peak, c.Process.Pid)
	if rss > 200<<20 {
		t.Errorf("peak memory %d MiB", rss>>20)
	}
	t.Logf("200,000 words refused: peak RSS %d MiB, %v user, %v system", rss>>20, c.ProcessState.UserTime(), c.ProcessState.SystemTime())

	// A word repeated within the limits searches once.
	got := f.mustRun("search", "a", "a", "a", "-x", "-x")
	if strings.Count(got, "a.txt") != 1 {
		t.Errorf("search a a a -x -x:\n%s", got)
	}
}
