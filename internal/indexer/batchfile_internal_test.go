package indexer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// inlineSlot answers every request with its places inline (the batch
// path, issue 35): one place holding "text of <name>", after pause (so
// that the coordinator is idle and commits between two results).
type inlineSlot struct{ pause time.Duration }

func (s inlineSlot) Pipeline(in <-chan worker.Request, done func(worker.Request, worker.Result), abandon <-chan struct{}) {
	for req := range in {
		time.Sleep(s.pause)
		if !req.Inline {
			done(req, worker.Result{Outcome: worker.Crashed, Msg: "not inline"})
			continue
		}
		places := []extract.Place{{Name: "本文", Lines: []string{"text of " + req.Name}}}
		done(req, worker.Result{Outcome: worker.Finished, Response: worker.Response{ID: req.ID, OK: true, TSVCount: 1, Inline: true, Places: content.AppendPlaces(nil, places)}})
	}
}

// freshBody records the batch records each publish takes (name → lines),
// and fails the publish of a folder holding "毒".
type freshBody struct {
	nopBody
	mu    sync.Mutex
	fresh map[string][]string
}

func (b *freshBody) PublishFresh(dir string, removed []string, trash *content.Trash, fresh []bodyindex.Fresh) error {
	if strings.Contains(dir, "毒") {
		return errors.New("bodyindex: cannot write the index")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fresh == nil {
		b.fresh = map[string][]string{}
	}
	for _, f := range fresh {
		places, err := f.Load()
		if err != nil {
			return err
		}
		for _, p := range places {
			b.fresh[f.Name] = append(b.fresh[f.Name], p.Lines...)
		}
	}
	return b.nopBody.Publish(dir, removed)
}

// TestBatchPath: inline results go through the run's batch file into the
// publishes (kept in memory or read back from the file), a folder set
// aside fails its files and leaves a 'D' record, and the run deletes its
// batch file at its end; the same with a batch file closed at every
// commit (batchRotate), whose 'D' record goes to a new file.
func TestBatchPath(t *testing.T) {
	for _, c := range []struct {
		name         string
		keep, rotate int64
	}{
		{"kept", 64 << 20, 64 << 20},
		{"read back", 0, 64 << 20},
		{"kept, rotated", 64 << 20, 1},
		{"read back, rotated", 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			oldKeep, oldRotate, oldEvery := batchKeep, batchRotate, commitEvery
			batchKeep, batchRotate = c.keep, c.rotate
			if c.rotate == 1 {
				commitEvery = 0 // a commit whenever no result waits
			}
			defer func() { batchKeep, batchRotate, commitEvery = oldKeep, oldRotate, oldEvery }()
			ws, opt := poisonFixture(t)
			body := &freshBody{}
			opt.Body = body
			opt.newSlot = func(worker.Config, string) slot { return inlineSlot{pause: 5 * time.Millisecond} }
			// Keep the batch files for a look: copy each before its
			// deletion.
			kept := map[string][]byte{}
			beforeBatchDelete = func(path string) { kept[path], _ = os.ReadFile(path) }
			defer func() { beforeBatchDelete = func(string) {} }()
			if _, err := Run(opt); err != nil {
				t.Fatal(err)
			}
			rows := rowsOf(t, ws)
			sort.Strings(rows)
			want := []string{`src\a.txt 済 `, `src\毒\b.txt 失敗 ` + msgFolderFailed, `src\毒\c.txt 失敗 ` + msgFolderFailed, `src\良\d.txt 済 `}
			if !reflect.DeepEqual(rows, want) {
				t.Errorf("rows:\n%q\nwant\n%q", rows, want)
			}
			wantFresh := map[string][]string{"a.txt": {"text of a.txt"}, "d.txt": {"text of d.txt"}}
			if !reflect.DeepEqual(body.fresh, wantFresh) {
				t.Errorf("published records %q, want %q", body.fresh, wantFresh)
			}
			if paths, _ := content.ListBatches(ws.BatchDir()); len(paths) != 0 {
				t.Errorf("batch files left: %q", paths)
			}
			if len(kept) == 0 {
				t.Fatal("no batch file before its deletion")
			}
			if c.rotate == 1 && len(kept) < 2 {
				t.Errorf("%d batch files with a file closed at every commit", len(kept))
			}
			latest, torn, err := latestOf(t, kept)
			if err != nil || len(torn) > 0 {
				t.Fatalf("batch files: %v %q", err, torn)
			}
			// 毒's records are dropped; a.txt and d.txt remain.
			var names []string
			for _, r := range latest {
				names = append(names, content.BaseOf(r.Path))
			}
			sort.Strings(names)
			if !reflect.DeepEqual(names, []string{"a.txt", "d.txt"}) {
				t.Errorf("records after the drop: %q", names)
			}
		})
	}
}

// TestBatchRotation: with a batch file closed at every commit, a build of
// many folders deletes the closed files as their folders are published,
// not only at its end; every file's text reaches its publish, read back
// from the file that holds it.
func TestBatchRotation(t *testing.T) {
	oldKeep, oldRotate, oldEvery := batchKeep, batchRotate, commitEvery
	batchKeep, batchRotate, commitEvery = 0, 1, 0
	defer func() { batchKeep, batchRotate, commitEvery = oldKeep, oldRotate, oldEvery }()
	base := t.TempDir()
	root := filepath.Join(base, "src")
	var names []string
	for d := range 8 {
		for f := range 5 {
			name := fmt.Sprintf("f%d-%d.txt", d, f)
			p := filepath.Join(root, fmt.Sprintf("d%d", d), name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
	}
	ws, err := workspace.Open(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	body := &freshBody{}
	opt := Options{Workspace: ws, Settings: &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
		Workers: 1, Grace: time.Millisecond, Body: body,
		newSlot: func(worker.Config, string) slot { return inlineSlot{pause: 5 * time.Millisecond} }}
	var early []string
	closedBatchDeleted = func(path string) { early = append(early, path) }
	defer func() { closedBatchDeleted = func(string) {} }()
	if _, err := Run(opt); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if got := body.fresh[n]; !reflect.DeepEqual(got, []string{"text of " + n}) {
			t.Errorf("%s published as %q", n, got)
		}
	}
	for _, row := range rowsOf(t, ws) {
		if !strings.Contains(row, " 済 ") {
			t.Errorf("row %q", row)
		}
	}
	if len(early) == 0 {
		t.Error("no closed batch file was deleted before the run's end")
	}
	if paths, _ := content.ListBatches(ws.BatchDir()); len(paths) != 0 {
		t.Errorf("batch files left: %q", paths)
	}
}

// latestOf reads copies of batch files (path → bytes) through
// content.LatestRecords, in the order of their names.
func latestOf(t *testing.T, files map[string][]byte) (map[string]content.BatchRecord, []string, error) {
	dir := t.TempDir()
	var paths []string
	for p, data := range files {
		c := filepath.Join(dir, filepath.Base(p))
		if err := os.WriteFile(c, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, c)
	}
	sort.Strings(paths)
	return content.LatestRecords(paths)
}

// TestBatchLeftByAKill: a batch file a killed run left is published by
// the next start for the folders the journal shows unpublished, and
// deleted.
func TestBatchLeftByAKill(t *testing.T) {
	ws, opt := poisonFixture(t)
	body := &freshBody{}
	opt.Body = body
	opt.newSlot = func(worker.Config, string) slot { return inlineSlot{} }
	if _, err := Run(opt); err != nil {
		t.Fatal(err)
	}
	// As if the run had died before publishing 良: its journal has no 出
	// for it, and its batch file is still there with d.txt's record.
	data, err := os.ReadFile(ws.Journal())
	if err != nil {
		t.Fatal(err)
	}
	j := strings.Replace(string(data), "出\tsrc\\良\r\n", "", 1)
	if err := os.WriteFile(ws.Journal(), []byte(j), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := content.CreateBatch(filepath.Join(ws.BatchDir(), "00000000000000000001-1"+content.BatchExt))
	if err != nil {
		t.Fatal(err)
	}
	w.Append(content.BatchRecord{Path: `src\良\d.txt`, Places: []extract.Place{{Name: "本文", Lines: []string{"old"}}}})
	w.Append(content.BatchRecord{Path: `src\a.txt`, Places: []extract.Place{{Name: "本文", Lines: []string{"published already"}}}})
	w.Append(content.BatchRecord{Path: `src\良\d.txt`, Places: []extract.Place{{Name: "本文", Lines: []string{"later wins"}}}})
	w.Close()
	body.fresh = nil
	opt.Workers = 1
	if _, err := Run(opt); err != nil {
		t.Fatal(err)
	}
	// (nopBody's index holds nothing, so the run ingests both again
	// after the start.)
	if got := body.fresh["d.txt"]; len(got) == 0 || got[0] != "later wins" {
		t.Errorf("d.txt published from the batch file as %q", got)
	}
	if got := body.fresh["a.txt"]; slices.Contains(got, "published already") {
		t.Errorf("a.txt, in a folder with 出, was published from the old batch file: %q", got)
	}
	if paths, _ := content.ListBatches(ws.BatchDir()); len(paths) != 0 {
		t.Errorf("batch files left: %q", paths)
	}
}
