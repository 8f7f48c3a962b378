package main

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestStopAndResume: Ctrl-C stops dispatching at once, files in flight
// finish within the grace, the rest stay 未取り込み, exit 2; the next run
// resumes them. A second Ctrl-C skips the grace and kills a hung file,
// which stays 未取り込み and is not counted as interrupted.
func TestStopAndResume(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("signals")
	}
	f := newFixture(t)
	for i := 0; i < 12; i++ {
		f.write(fmt.Sprintf("f%02d.txt", i), fmt.Sprintf("内容%02d\n", i))
	}
	f.write("zz-stuck.txt", "止まる\n")
	f.mustRun("folder", "add", f.root)
	f.env = []string{"FUMIBAKO_TEST_FAULT=slow:f,hang:zz-stuck"}
	c := f.cmd("index", "--workers", "1")
	var out strings.Builder
	c.Stdout = &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Count(f.log(), "取り込みました（1 か所）。") >= 2 })
	c.Process.Signal(syscall.SIGINT)
	err := c.Wait()
	if code := c.ProcessState.ExitCode(); code != 2 {
		t.Fatalf("exit %d (%v), want 2\n%s", code, err, out.String())
	}
	if !strings.Contains(f.log(), "中止の要求を受けたため、インデックス作成を中止します。") {
		t.Errorf("log lacks the stop line:\n%s", f.log())
	}
	done, pending := 0, 0
	for _, r := range f.list().Rows {
		switch r.State {
		case ingestlist.Done:
			done++
		case ingestlist.Pending:
			pending++
		}
	}
	if done < 2 || pending == 0 || done+pending != 13 {
		t.Fatalf("after stop: %d 済, %d 未取り込み", done, pending)
	}

	// The next run resumes; a second Ctrl-C skips the grace on the hung file.
	f.env = []string{"FUMIBAKO_TEST_FAULT=hang:zz-stuck"}
	c = f.cmd("index", "--workers", "1")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return journalStarted(f, "zz-stuck.txt") })
	start := time.Now()
	c.Process.Signal(syscall.SIGINT)
	time.Sleep(200 * time.Millisecond)
	c.Process.Signal(syscall.SIGINT)
	c.Wait()
	if el := time.Since(start); el > 4*time.Second {
		t.Errorf("second Ctrl-C took %v, want the grace skipped", el)
	}
	if code := c.ProcessState.ExitCode(); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if r := f.row("zz-stuck.txt"); r.State != ingestlist.Pending || r.Error != "" {
		t.Errorf("stopped file row = %+v, want 未取り込み", r)
	}
	// Not counted as interrupted: the next run takes it normally.
	f.env = nil
	out2 := f.mustRun("index")
	if strings.Contains(out2, "強制終了") {
		t.Errorf("a stopped file was treated as interrupted:\n%s", out2)
	}
	for _, r := range f.list().Rows {
		if r.State != ingestlist.Done {
			t.Errorf("%s: %s after the resumed run", r.RelPath, r.State)
		}
	}
}
