package indexer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/plan"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// scriptedSlot is a worker slot in the test's process: each request gets
// the result its script gives for the file's name; a successful one first
// writes the file's place TSVs into the stage, as a worker does. A "hang"
// answers only when the run abandons its files (a stop).
type scriptedSlot struct {
	script func(name string) (worker.Result, bool) // result, hang
	seen   *[]string
}

func (s scriptedSlot) Pipeline(in <-chan worker.Request, done func(worker.Request, worker.Result), abandon <-chan struct{}) {
	stopped := false
	for req := range in {
		*s.seen = append(*s.seen, req.Name)
		res, hang := s.script(req.Name)
		if hang && !stopped {
			// Hung on req: keep taking requests into the pipe, as a slot
			// does, until the run abandons them all.
			held := []worker.Request{req}
			for !stopped {
				select {
				case <-abandon:
					stopped = true
				case r, ok := <-in:
					if !ok {
						in = nil
						continue
					}
					*s.seen = append(*s.seen, r.Name)
					held = append(held, r)
				}
			}
			for _, r := range held {
				done(r, worker.Result{Outcome: worker.Stopped, Detail: "stopped"})
			}
			if in == nil {
				return
			}
			continue
		}
		if stopped {
			done(req, worker.Result{Outcome: worker.Stopped, Detail: "stopped"})
			continue
		}
		if res.Outcome == worker.Finished && res.Response.OK {
			places := []extract.Place{{Name: "本文", Lines: []string{"text of " + req.Name}}}
			if _, err := content.WriteFolder(req.Stage, places); err != nil {
				res = worker.Result{Outcome: worker.Crashed, Msg: "stage: " + err.Error()}
			}
		}
		done(req, res)
	}
}

const (
	msgBroken = "ファイルが壊れているため開けません"
	msgLater  = "あとで取り込みます"
)

func answer(name string) (worker.Result, bool) {
	switch {
	case strings.HasPrefix(name, "broken"):
		return worker.Result{Outcome: worker.Finished, Response: worker.Response{Msg: msgBroken}}, false
	case strings.HasPrefix(name, "slow"):
		return worker.Result{Outcome: worker.TimedOut, Msg: worker.MsgTimeout(time.Minute)}, false
	case strings.HasPrefix(name, "crash"):
		return worker.Result{Outcome: worker.Crashed, Msg: "異常終了"}, false
	case strings.HasPrefix(name, "huge"):
		return worker.Result{Outcome: worker.OutOfMemory, Msg: worker.MsgOutOfMemory}, false
	case strings.HasPrefix(name, "later"):
		return worker.Result{Outcome: worker.Finished, Response: worker.Response{Postponed: true, Msg: msgLater}}, false
	case strings.HasPrefix(name, "full"):
		f := &workspace.FaultError{Kind: workspace.FaultFull, Path: "/ws/x"}
		return worker.Result{Outcome: worker.Faulted, Msg: f.Error(), Fault: f}, false
	case strings.HasPrefix(name, "hang"):
		return worker.Result{}, true
	case strings.HasPrefix(name, "gone"):
		return worker.Result{Outcome: worker.Finished, Response: worker.Response{Vanished: true, Msg: "ファイルが見つかりません"}}, false
	}
	return worker.Result{Outcome: worker.Finished, Response: worker.Response{OK: true, TSVCount: 1}}, false
}

// TestRunOutcomes runs the indexer in process over a folder tree with a
// scripted worker slot and checks what a run leaves: the ingest-list rows,
// the journal records and the folders published, in order.
func TestRunOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		files   []string // under the root, `/` separators
		stop    bool     // stop once a "hang" file is in flight
		lose    bool     // the root goes away when a "lost" file is handed over
		fault   bool     // the run ends with the workspace fault
		rows    []string // "relpath state tsv error"
		journal []string // kinds and fields after the 版 and 回 records
		publish []string // folders published, relative to the content root
	}{
		{
			name:  "every outcome",
			files: []string{"a.txt", "broken.txt", "crash.txt", "gone.txt", "huge.txt", "later.txt", "slow.txt", "sub/b.txt"},
			// gone.txt vanished after the crawl: dropped, not failed.
			rows: []string{
				`src\a.txt 済 1 `,
				`src\broken.txt 失敗 0 ` + msgBroken,
				`src\crash.txt 失敗 0 異常終了`,
				`src\huge.txt 失敗 0 ` + worker.MsgOutOfMemory,
				`src\later.txt 未取り込み 0 ` + msgLater,
				`src\slow.txt 失敗 0 ` + worker.MsgTimeout(time.Minute),
				`src\sub\b.txt 済 1 `,
			},
			// sub\b.txt is handed out with the files of src, all in the
			// worker's pipe at once (worker.Depth).
			journal: []string{`始 src\a.txt 1`, `始 src\broken.txt 1`, `始 src\crash.txt 1`, `始 src\gone.txt 1`, `始 src\huge.txt 1`,
				`始 src\later.txt 1`, `始 src\slow.txt 1`, `始 src\sub\b.txt 1`, `出 src`, `出 src\sub`, `書`, `終`},
			publish: []string{"src", `src\sub`},
		},
		{
			name:  "workspace fault stops the run",
			fault: true,
			// y1–y6.txt were in the pipe behind full.txt (worker.Depth
			// in all); z1 and z2.txt are never handed out.
			files: slices.Concat([]string{"a.txt", "full.txt"}, numbered("y", 6), numbered("z", 2)),
			rows:  slices.Concat(outcomeRows("済 1", "a.txt"), outcomeRows("未取り込み 0", "full.txt"), outcomeRows("済 1", numbered("y", 6)...), outcomeRows("未取り込み 0", numbered("z", 2)...)),
			// finish publishes what it can and skips the rewrite (no 書).
			journal: slices.Concat(starts("a.txt", "full.txt"), starts(numbered("y", 6)...), []string{`出 src`, `終`}),
			publish: []string{"src"},
		},
		{
			name: "root gone stops the run",
			// The share goes away while lost.txt is handed over: the
			// worker finds it gone, the run stops handing files out and
			// keeps every row (y1–y6.txt were in the pipe, z1 and z2.txt
			// never handed out).
			files:   slices.Concat([]string{"a.txt", "lost.txt"}, numbered("y", 6), numbered("z", 2)),
			lose:    true,
			rows:    slices.Concat(outcomeRows("済 1", "a.txt"), outcomeRows("未取り込み 0", "lost.txt"), outcomeRows("未取り込み 0", numbered("y", 6)...), outcomeRows("未取り込み 0", numbered("z", 2)...)),
			journal: slices.Concat(starts("a.txt", "lost.txt"), starts(numbered("y", 6)...), []string{`出 src`, `書`, `終`}),
			publish: []string{"src"},
		},
		{
			name: "stop keeps the file in flight pending",
			// hang.txt and y1–y7.txt fill the worker's pipe; the stop
			// comes while hang.txt is extracted, so z.txt is never handed
			// out.
			files: slices.Concat([]string{"hang.txt"}, numbered("y", 7), []string{"z.txt"}),
			stop:  true,
			rows:  slices.Concat(outcomeRows("未取り込み 0", "hang.txt"), outcomeRows("未取り込み 0", numbered("y", 7)...), outcomeRows("未取り込み 0", "z.txt")),
			// Nothing of src was ingested: its publish has no index to
			// merge into (the journal still closes the folder).
			journal: slices.Concat(starts("hang.txt"), starts(numbered("y", 7)...), []string{`出 src`, `書`, `終`}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "src")
			for _, f := range tt.files {
				p := filepath.Join(root, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ws, err := workspace.Open(filepath.Join(base, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			body := &nopBody{}
			stop := make(chan struct{})
			var seen []string
			script := answer
			if tt.lose {
				script = func(name string) (worker.Result, bool) {
					if strings.HasPrefix(name, "lost") {
						os.RemoveAll(root)
					}
					if _, err := os.Stat(root); err != nil {
						return worker.Result{Outcome: worker.Finished, Response: worker.Response{Vanished: true}}, false
					}
					return answer(name)
				}
			}
			if tt.stop {
				script = func(name string) (worker.Result, bool) {
					res, hang := answer(name)
					if hang {
						close(stop)
					}
					return res, hang
				}
			}
			sum, err := Run(Options{
				Workspace: ws,
				Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
				Body:      body,
				Workers:   1,
				Grace:     time.Millisecond,
				Stop:      stop,
				newSlot: func(worker.Config, string) slot {
					return scriptedSlot{script: script, seen: &seen}
				},
			})
			var fault *workspace.FaultError
			var lost *ErrRootLost
			if tt.lose != errors.As(err, &lost) || tt.lose && lost.Remaining != len(tt.files)-1 {
				t.Fatalf("Run: %v (summary %+v), want the root lost with all but one file left %v", err, sum, tt.lose)
			} else if tt.lose {
				err = nil
			}
			if tt.fault != errors.As(err, &fault) || !tt.fault && err != nil {
				t.Fatalf("Run: %v (summary %+v), want fault %v", err, sum, tt.fault)
			}
			l, err := ingestlist.ReadFile(ws.IngestList())
			if err != nil {
				t.Fatal(err)
			}
			var rows []string
			for _, r := range l.Rows {
				rows = append(rows, fmt.Sprintf("%s %s %d %s", r.RelPath, r.State, r.TSVCount, r.Error))
			}
			check(t, "rows", rows, tt.rows)
			// A file found gone is dropped, with the log's line for it.
			log, _ := os.ReadFile(ws.Log())
			gone := slices.Contains(tt.files, "gone.txt")
			if vanished := strings.Contains(string(log), "src\\gone.txt\r\n"+msgVanished+"\r\n"); vanished != gone || (sum.Dropped == 1) != gone {
				t.Errorf("dropped %d, log says gone.txt vanished: %v, want %v\n%s", sum.Dropped, vanished, gone, log)
			}
			jl, err := journal.ReadFile(ws.Journal())
			if err != nil {
				t.Fatal(err)
			}
			var recs []string
			for _, r := range jl.Records {
				if r.Kind == journal.KindVersion || r.Kind == journal.KindRun {
					continue
				}
				recs = append(recs, strings.Join(append([]string{string(r.Kind)}, r.Fields...), " "))
			}
			// Folders published in parallel write their 出 in any order;
			// their 試 records (checkTries) are left out here.
			recs = checkTries(t, recs)
			sortRuns(recs, "出 ")
			check(t, "journal", recs, tt.journal)
			// The worker got exactly the files with a 始 record, in order.
			var started []string
			for _, r := range jl.Records {
				if r.Kind == journal.KindStart {
					started = append(started, r.Fields[0][strings.LastIndexByte(r.Fields[0], '\\')+1:])
				}
			}
			check(t, "handed to the worker", seen, started)
			var pub []string
			for _, d := range body.published {
				rel, err := filepath.Rel(ws.ContentRoot(), d)
				if err != nil {
					t.Fatal(err)
				}
				pub = append(pub, strings.ReplaceAll(rel, string(filepath.Separator), `\`))
			}
			// Folders are published in parallel: in any order.
			slices.Sort(pub)
			check(t, "published", pub, tt.publish)
			// Every 済 row has its place TSVs in the content tree.
			for _, r := range l.Rows {
				if r.State != ingestlist.Done {
					continue
				}
				places, err := content.ReadFolder(content.Dir(ws.ContentRoot(), r.RelPath))
				if err != nil || len(places) != 1 || places[0].Lines[0] != "text of "+filepath.Base(strings.ReplaceAll(r.RelPath, `\`, "/")) {
					t.Errorf("content of %s = %+v, %v", r.RelPath, places, err)
				}
			}
		})
	}
}

// numbered returns n file names prefix1.txt, prefix2.txt, ….
func numbered(prefix string, n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("%s%d.txt", prefix, i))
	}
	return out
}

// outcomeRows returns the rows TestRunOutcomes expects of files of root src:
// "relpath state tsv error" with state and tsv as given and no error.
func outcomeRows(stateTSV string, files ...string) []string {
	var out []string
	for _, f := range files {
		out = append(out, `src\`+f+" "+stateTSV+" ")
	}
	return out
}

// starts returns the 始 records of files of root src, first hand-offs.
func starts(files ...string) []string {
	var out []string
	for _, f := range files {
		out = append(out, `始 src\`+f+" 1")
	}
	return out
}

func check(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunMemLimitDefault: without a setting the workers' memory cap is
// the machine's share (worker.DefaultMemLimit of an 8 GB machine here);
// an explicit cap wins, and a negative one means none.
func TestRunMemLimitDefault(t *testing.T) {
	tests := []struct {
		name    string
		set     int64
		workers int
		want    int64
	}{
		{"default, 1 worker", 0, 1, 2 << 30},
		{"default, 2 workers", 0, 2, 1 << 30},
		{"default, 4 workers", 0, 4, 512 << 20},
		{"explicit", 300 << 20, 2, 300 << 20},
		{"none", -1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := workspace.Open(filepath.Join(t.TempDir(), "ws"))
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			var seen []string
			_, err = Run(Options{
				Workspace:   ws,
				Settings:    &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
				Body:        &nopBody{},
				Workers:     tt.workers,
				MemLimit:    tt.set,
				totalMemory: func() (uint64, bool) { return 8 << 30, true },
				newSlot: func(cfg worker.Config, _ string) slot {
					got = append(got, cfg.MemLimit)
					return scriptedSlot{script: answer, seen: &seen}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				t.Fatal("no worker started")
			}
			for _, m := range got {
				if m != tt.want {
					t.Errorf("worker MemLimit = %d, want %d", m, tt.want)
				}
			}
		})
	}
}

// sortRuns sorts each run of consecutive records starting with prefix.
func sortRuns(recs []string, prefix string) {
	for i := 0; i < len(recs); {
		j := i
		for j < len(recs) && strings.HasPrefix(recs[j], prefix) {
			j++
		}
		slices.Sort(recs[i:j])
		i = max(j, i+1)
	}
}

// checkTries checks the 試 records of a run where no publish died: each
// folder's publish is recorded as it begins (試 1) and as it comes back
// (試 0), both before the folder's 出. It returns the other records.
func checkTries(t *testing.T, recs []string) []string {
	t.Helper()
	tries := map[string][]string{}
	var rest []string
	for _, r := range recs {
		if folder, n, ok := strings.Cut(strings.TrimPrefix(r, "試 "), " "); ok && strings.HasPrefix(r, "試 ") {
			tries[folder] = append(tries[folder], n)
			continue
		}
		if folder, ok := strings.CutPrefix(r, "出 "); ok {
			if got := strings.Join(tries[folder], ","); got != "1,0" {
				t.Errorf("試 records of %s before its 出: %q, want 1,0", folder, got)
			}
			delete(tries, folder)
		}
		rest = append(rest, r)
	}
	if len(tries) > 0 {
		t.Errorf("試 records without 出: %v", tries)
	}
	return rest
}

// TestLanesHandOutGroups: a slot is filled up to worker.Depth, then gets
// nothing more until it is down to half (refill), when it is filled up
// again; a file interrupted before goes only to an idle slot, which then
// takes nothing else until it is idle again.
func TestLanesHandOutGroups(t *testing.T) {
	l := &lanes{load: make([]int, 2), bytes: make([]int64, 2), filling: make([]bool, 2), alone: make([]bool, 2)}
	const small = 20 << 10
	handSized := func(count int, size int64) int {
		t := plan.Target{Count: count}
		t.File.Size = size
		slot := l.free(t)
		if slot >= 0 {
			l.load[slot]++
			l.bytes[slot] += size
			l.filling[slot] = l.load[slot] < worker.Depth
			l.alone[slot] = count > 0
		}
		return slot
	}
	hand := func(count int) int { return handSized(count, small) }
	answer := func(slot, n int) {
		for range n {
			l.load[slot]--
			l.bytes[slot] -= small
			if l.load[slot] == 0 {
				l.alone[slot] = false
			}
		}
	}
	for range 2 * worker.Depth {
		if hand(0) < 0 {
			t.Fatalf("loads %v: no slot for a file before both are full", l.load)
		}
	}
	if l.load[0] != worker.Depth || l.load[1] != worker.Depth || hand(0) >= 0 {
		t.Fatalf("loads %v after %d files, want both full", l.load, 2*worker.Depth)
	}
	answer(0, refill-1)
	if hand(0) >= 0 {
		t.Fatalf("loads %v: a slot above half got a file", l.load)
	}
	answer(0, 1)
	for range worker.Depth - refill {
		if slot := hand(0); slot != 0 {
			t.Fatalf("loads %v: file to slot %d, want the slot down to half filled up", l.load, slot)
		}
	}
	if hand(0) >= 0 || hand(1) >= 0 {
		t.Fatalf("loads %v: a file past a full pipe", l.load)
	}
	// An interrupted file waits for an idle slot and then runs alone.
	answer(1, worker.Depth)
	if slot := hand(1); slot != 1 || hand(0) >= 0 {
		t.Fatalf("loads %v, alone %v: the interrupted file is not alone on the idle slot", l.load, l.alone)
	}
	// Large files: a first one always goes, more only within pipeBytes.
	l = &lanes{load: make([]int, 1), bytes: make([]int64, 1), filling: make([]bool, 1), alone: make([]bool, 1)}
	if handSized(0, 3*pipeBytes) != 0 {
		t.Fatal("a file larger than pipeBytes does not go to an idle slot")
	}
	if handSized(0, small) >= 0 {
		t.Fatalf("bytes %v: a second file past pipeBytes", l.bytes)
	}
	l = &lanes{load: make([]int, 1), bytes: make([]int64, 1), filling: make([]bool, 1), alone: make([]bool, 1)}
	if handSized(0, 3<<20) != 0 || handSized(0, 3<<20) != 0 || handSized(0, 3<<20) >= 0 {
		t.Fatalf("bytes %v: want two files of 3 MB in flight, not three", l.bytes)
	}
}
