package journal_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/journal"
)

// envKillChild makes the test binary act as the child of TestKillMidAppend:
// it appends 始 records to the journal named by the variable until killed.
const envKillChild = "FUMIBAKO_JOURNAL_KILL_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(envKillChild); path != "" {
		appendForever(path)
		return
	}
	os.Exit(m.Run())
}

func appendForever(path string) {
	w, err := journal.Create(path, time.Now(), 0, nil, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := 1; ; i++ {
		if err := w.Start(fmt.Sprintf(`営業\2024\見積\ファイル%06d.xlsx`, i), i); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// TestKillMidAppend kills a process that appends to the journal with
// SIGKILL at a moment it does not choose: every line but possibly a torn
// last one is intact, parses, and the records are the ones written, in
// order.
func TestKillMidAppend(t *testing.T) {
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
	for round, wait := range []time.Duration{30 * time.Millisecond, 70 * time.Millisecond, 150 * time.Millisecond} {
		path := filepath.Join(t.TempDir(), "ingest.tsv")
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), envKillChild+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Let the child write some lines, then kill it wherever it is.
		deadline := time.Now().Add(10 * time.Second)
		for {
			if st, err := os.Stat(path); err == nil && st.Size() > 200 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child wrote nothing: %s", stderr.String())
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(wait)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()

		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		l, err := journal.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("round %d: Read error: %v", round, err)
		}
		if !l.Readable() || l.Skipped != 0 {
			t.Fatalf("round %d: Read = version %q, %d skipped; want readable, none skipped", round, l.Version, l.Skipped)
		}
		if l.Torn != (data[len(data)-1] != '\n') {
			t.Errorf("round %d: Torn = %v for a file ending in %q", round, l.Torn, data[len(data)-1:])
		}
		starts := l.Records[1:] // after 回
		if len(starts) == 0 {
			t.Fatalf("round %d: no 始 records survived", round)
		}
		for i, r := range starts {
			want := journal.Record{Kind: journal.KindStart,
				Fields: []string{fmt.Sprintf(`営業\2024\見積\ファイル%06d.xlsx`, i+1), strconv.Itoa(i + 1)}}
			if r.Kind != want.Kind || len(r.Fields) != 2 || r.Fields[0] != want.Fields[0] || r.Fields[1] != want.Fields[1] {
				t.Fatalf("round %d: record %d = %+v, want %+v", round, i, r, want)
			}
		}
		got := l.Recover(nil)
		if len(got.Redo) != len(starts) || got.Redo[len(got.Redo)-1].Count != len(starts) {
			t.Errorf("round %d: Recover redoes %d jobs, want %d", round, len(got.Redo), len(starts))
		}
		t.Logf("round %d: %d lines intact, torn last line: %v", round, len(starts), l.Torn)
	}
}
