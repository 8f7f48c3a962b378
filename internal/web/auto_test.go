package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/watch"
	"github.com/fumibako/fumibako/internal/web/indexing"
)

// TestAutoUpdate: 自動で更新する starts the watcher (saved in the
// settings); a new file is ingested without a press of the button and the
// page shows the change; a run by hand takes the lock over without a lock
// error and the watcher resumes after it; off halts it and frees the lock.
func TestAutoUpdate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the watcher's end-to-end tests run on Linux and macOS")
	}
	e := newEnv(t, fumibakoBinary(t))
	e.write("a.txt", []byte("最初"))
	auto := func(v indexing.View) *indexing.AutoView {
		if v.Auto == nil {
			return &indexing.AutoView{}
		}
		return v.Auto
	}
	waiting := func(v indexing.View) bool { return auto(v).Running && auto(v).Doing == watch.DoingWait }
	if resp, m := e.post("/api/auto", map[string]any{"on": true}); resp.StatusCode != http.StatusOK {
		t.Fatalf("auto on = %d %v", resp.StatusCode, m)
	}
	e.waitRun("the watcher waits", waiting)
	if s, err := e.ws.LoadSettings(); err != nil || !s.AutoUpdate {
		t.Errorf("settings autoUpdate = %v (%v), want on", s != nil && s.AutoUpdate, err)
	}
	e.write("b.txt", []byte("二つ目"))
	v := e.waitRun("the change is picked up", func(v indexing.View) bool { return auto(v).LastChange == `営業\b.txt` })
	if v.Locked {
		t.Errorf("the server's own watcher shows as another process's lock: %+v", v)
	}
	for _, rel := range []string{`営業\a.txt`, `営業\b.txt`} {
		if r, ok := e.listRow(rel); !ok || r.State != ingestlist.Done {
			t.Errorf("%s: row %+v (%v), want 済", rel, r, ok)
		}
	}
	// A folder added while watching is watched from then on.
	other := filepath.Join(filepath.Dir(e.root), "経理")
	os.MkdirAll(other, 0o755)
	if resp, m := e.post("/api/folders/add", map[string]any{"path": other}); resp.StatusCode != http.StatusOK {
		t.Fatalf("add a folder while watching = %d %v", resp.StatusCode, m)
	}
	os.WriteFile(filepath.Join(other, "c.txt"), []byte("三つ目"), 0o644)
	// The restarted watcher's full run takes c.txt; then d.txt is an event.
	e.waitRun("the restart's full run", func(v indexing.View) bool {
		r, ok := e.listRow(`経理\c.txt`)
		return waiting(v) && ok && r.State == ingestlist.Done
	})
	os.WriteFile(filepath.Join(other, "d.txt"), []byte("四つ目"), 0o644)
	e.waitRun("the new folder's change is picked up", func(v indexing.View) bool { return auto(v).LastChange == `経理\d.txt` })
	if resp, m := e.post("/api/run/start", map[string]any{}); resp.StatusCode != http.StatusOK {
		t.Fatalf("run by hand while watching = %d %v", resp.StatusCode, m)
	}
	e.waitRun("the confirmation", confirming)
	e.post("/api/run/confirm", map[string]any{"proceed": true})
	e.waitRun("the run by hand ends", ended)
	e.waitRun("the watcher resumes", waiting)
	e.post("/api/auto", map[string]any{"on": false})
	e.waitRun("the watcher halts", func(v indexing.View) bool { return !auto(v).Running && !auto(v).On })
	if e.ws.IsLocked() {
		t.Error("the lock is held after 自動で更新する was turned off")
	}
}

func (e *env) listRow(rel string) (ingestlist.Row, bool) {
	l, err := ingestlist.ReadFile(e.ws.IngestList())
	if err != nil {
		return ingestlist.Row{}, false
	}
	return l.Lookup(rel)
}
