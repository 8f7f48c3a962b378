package summary

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
)

// envSummaryChild makes the test binary the child of TestKillMidSummary:
// it writes the summary of the index "案件" under the content root the
// variable names, slowly (bands of one block of rows, 2 ms each), until killed.
const envSummaryChild = "FUMIBAKO_SUMMARY_KILL_CHILD"

func TestMain(m *testing.M) {
	if root := os.Getenv(envSummaryChild); root != "" {
		summaryBudget = 1 // bands of one block of rows
		afterSummaryBand = func() { time.Sleep(2 * time.Millisecond) }
		if err := Write(root, "案件"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(3) // done before the kill: the parent says so
	}
	os.Exit(m.Run())
}

// TestKillMidSummary kills a process with SIGKILL while it writes the
// summary over the one before: the summary on disk is still the one
// before and the index is still marked changing; the next write removes
// the temporary file, reuses the columns of the summary before, equals a
// summary written from scratch and clears the mark.
func TestKillMidSummary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL of a child process is tested on Linux")
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := manyPartsCorpus(t)
	counts := hookSummary(t)
	path := Path(root, "案件")
	r := rand.New(rand.NewPCG(10, 11))
	for round, wait := range []time.Duration{0, 10 * time.Millisecond, 30 * time.Millisecond} {
		if err := Write(root, "案件"); err != nil {
			t.Fatal(err)
		}
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// A run: mark, publish a folder (new parts), write the summary.
		if err := MarkChanging(root, "案件"); err != nil {
			t.Fatal(err)
		}
		publishSummaryFolder(t, root, fmt.Sprintf("部%d/課%d", round, round), r, 2)
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), envSummaryChild+"="+root)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			if _, err := os.Stat(path + format.TmpSuffix); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("round %d: the child wrote no temporary file: %s", round, stderr.String())
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(wait)
		cmd.Process.Kill()
		if err := cmd.Wait(); err == nil || cmd.ProcessState.ExitCode() != -1 {
			t.Fatalf("round %d: the child was not killed mid-write (%v): %s", round, err, stderr.String())
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, before) {
			t.Fatalf("round %d: the summary changed although its writer was killed", round)
		}
		if _, err := os.Stat(path + format.TmpSuffix); err != nil {
			t.Fatalf("round %d: no temporary file after the kill: %v", round, err)
		}
		if !Changing(root, "案件") {
			t.Fatalf("round %d: the mark is gone although the summary was not written", round)
		}
		if err := Write(root, "案件"); err != nil {
			t.Fatal(err)
		}
		reused := *counts
		got, _ := os.ReadFile(path)
		if _, err := os.Stat(path + format.TmpSuffix); !os.IsNotExist(err) {
			t.Errorf("round %d: the temporary file is still there: %v", round, err)
		}
		if Changing(root, "案件") {
			t.Errorf("round %d: the mark is still there after the summary was written", round)
		}
		fresh := writeSummaryBytes(t, root)
		if !bytes.Equal(got, fresh) {
			t.Fatalf("round %d: %d bytes differ from a fresh summary", round, diffCount(got, fresh))
		}
		if reused.read == 0 || reused.read >= counts.read/2 {
			t.Errorf("round %d: the write after the kill read %d of %d parts", round, reused.read, counts.read)
		}
	}
}
