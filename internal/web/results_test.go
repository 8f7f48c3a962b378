package web_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/web"
	"github.com/fumibako/fumibako/internal/web/indexing"
)

// index runs an indexing run through the API and waits for its end.
func (e *env) index() indexing.EndView {
	e.t.Helper()
	if resp, m := e.post("/api/run/start", map[string]any{}); resp.StatusCode != http.StatusOK {
		e.t.Fatalf("start = %d %v", resp.StatusCode, m)
	}
	e.waitRun("the confirmation", confirming)
	e.post("/api/run/confirm", map[string]any{"proceed": true})
	return *e.waitRun("the end", ended).End
}

// searchHits runs /api/search and returns its hit lines.
func (e *env) searchHits(params url.Values) []map[string]any {
	e.t.Helper()
	resp := e.do(http.MethodGet, "/api/search?"+params.Encode(), "", nil)
	defer resp.Body.Close()
	var hits []map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			e.t.Fatalf("bad line %q", sc.Text())
		}
		if m["type"] == "hit" {
			hits = append(hits, m)
		}
	}
	return hits
}

// TestIssue18FreshAPI: hits carry the modification time and size as
// indexed; POST /api/fresh answers, with one stat per file, which files
// were edited or deleted since; a file read but not changed (its time
// set back) is not reported; the index list of the search screen says
// when each index was last updated.
func TestIssue18FreshAPI(t *testing.T) {
	e := newEnv(t, fumibakoBinary(t))
	old := time.Date(2024, 4, 1, 9, 30, 0, 0, time.Local)
	for _, n := range []string{"edit.txt", "gone.txt", "touch.txt", "keep.txt"} {
		p := e.write(n, []byte("りんご "+n+"\n"))
		os.Chtimes(p, old, old)
	}
	e.write("旧システム.txt", []byte("中身\n"))
	e.index()

	hits := e.searchHits(url.Values{"q": {"りんご"}})
	if len(hits) != 4 {
		t.Fatalf("hits = %v", hits)
	}
	var files []map[string]any
	for _, h := range hits {
		mod, _ := time.Parse(time.RFC3339Nano, h["modified"].(string))
		if !mod.Equal(old) || h["size"].(float64) == 0 {
			t.Errorf("%s: modified %v size %v, want %v", h["path"], h["modified"], h["size"], old)
		}
		files = append(files, map[string]any{"path": h["index"].(string) + `\` + h["path"].(string), "modified": h["modified"], "size": h["size"]})
	}
	e.write("edit.txt", []byte("りんご 書き換えた\n"))
	os.Remove(filepath.Join(e.root, "gone.txt"))
	os.Chtimes(filepath.Join(e.root, "touch.txt"), time.Now(), old)

	resp, m := e.post("/api/fresh", map[string]any{"files": files})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("fresh = %d %v", resp.StatusCode, m)
	}
	states := m["states"].(map[string]any)
	want := map[string]string{`営業\edit.txt`: "インデックス作成後に変更されています", `営業\gone.txt`: "削除されています"}
	if len(states) != len(want) {
		t.Errorf("states = %v, want %v", states, want)
	}
	for p, msg := range want {
		st, _ := states[p].(map[string]any)
		if st == nil || st["message"] != msg {
			t.Errorf("%s: state %v, want %q", p, st, msg)
		}
	}
	// A path outside any index is refused quietly, not stat'ed.
	_, m = e.post("/api/fresh", map[string]any{"files": []map[string]any{{"path": `..\..\etc\passwd`}}})
	if len(m["states"].(map[string]any)) != 0 {
		t.Errorf("bad path answered: %v", m)
	}

	// A word only in a file name finds the file (kind ファイル名); the
	// toggle turns it off.
	if h := e.searchHits(url.Values{"q": {"旧システム"}}); len(h) != 1 || h[0]["kind"] != "ファイル名" || h[0]["placeLabel"] != "" {
		t.Errorf("name hit = %v", h)
	}
	if h := e.searchHits(url.Values{"q": {"旧システム"}, "filenames": {"0"}}); len(h) != 0 {
		t.Errorf("name hit with filenames=0: %v", h)
	}
	// The search screen's index list carries the last update with its date.
	var ix struct {
		Updated []struct{ Name, Updated string }
	}
	e.getJSON("/api/indexes", &ix)
	if len(ix.Updated) != 1 || ix.Updated[0].Name != "営業" || !strings.HasPrefix(ix.Updated[0].Updated, time.Now().Format("2006/01/02 ")) {
		t.Errorf("indexes = %+v", ix)
	}
}

// TestIssue18TypedPaths: a folder typed in the browser is never resolved
// against the server's working folder; a Windows path on another OS says
// why it cannot be used.
func TestIssue18TypedPaths(t *testing.T) {
	e := newEnvWith(t, "", false, 1)
	tests := []struct{ path, want string }{
		{`営業`, "絶対パスで指定してください"},
		{`./共有/営業`, "絶対パスで指定してください"},
	}
	if filepath.Separator == '/' {
		tests = append(tests, struct{ path, want string }{`\\fs01\share\営業`, "Windows のパスのため"},
			struct{ path, want string }{`C:\共有\営業`, "Windows のパスのため"})
	}
	for _, tt := range tests {
		resp, m := e.post("/api/folders/add", map[string]any{"path": tt.path})
		msg, _ := m["message"].(string)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(msg, tt.want) || !strings.Contains(msg, tt.path) {
			t.Errorf("add %q = %d %v, want a refusal with %q", tt.path, resp.StatusCode, m, tt.want)
		}
	}
	s, _ := e.ws.LoadSettings()
	if len(s.Roots) != 0 {
		t.Errorf("roots = %+v", s.Roots)
	}
}

// TestIssue18ExpectedFailures: a failed file marked 無視する is listed
// apart, does not count in its index's state or the failure total, and
// stays marked across runs; unmarking brings it back.
func TestIssue18ExpectedFailures(t *testing.T) {
	e := newEnv(t, fumibakoBinary(t))
	e.write("a.txt", []byte("りんご\n"))
	e.write("x.txt", pngBytes)
	e.index()
	state := func() (web.StateView, web.FolderView) {
		var st web.StateView
		e.getJSON("/api/state", &st)
		return st, st.Folders[0]
	}
	if st, f := state(); f.Status != "一部失敗 1 件" || st.Failures != 1 {
		t.Fatalf("before: status %q, failures %d", f.Status, st.Failures)
	}
	if resp, m := e.post("/api/failures/ignore", map[string]any{"path": `営業\x.txt`, "ignore": true}); resp.StatusCode != http.StatusOK || !strings.Contains(m["message"].(string), "無視します") {
		t.Fatalf("ignore = %d %v", resp.StatusCode, m)
	}
	check := func(when string) {
		t.Helper()
		st, f := state()
		if f.Status != "最新" || f.Failed != 0 || f.Ignored != 1 || st.Failures != 0 || st.Ignored != 1 {
			t.Errorf("%s: folder %+v, failures %d ignored %d", when, f, st.Failures, st.Ignored)
		}
		var fl struct {
			Count, Ignored int
			Rows           []web.FailureView
		}
		e.getJSON("/api/failures", &fl)
		if fl.Count != 0 || fl.Ignored != 1 || len(fl.Rows) != 1 || !fl.Rows[0].Ignored {
			t.Errorf("%s: failures %+v", when, fl)
		}
	}
	check("after 無視する")
	e.write("b.txt", []byte("みかん\n"))
	e.index()
	check("after another run")
	data, _ := os.ReadFile(filepath.Join(e.ws.Store(), "expected_failures.tsv"))
	if string(data) != "\ufeff営業\\x.txt\r\n" {
		t.Errorf("expected_failures.tsv = %q", data)
	}
	e.post("/api/failures/ignore", map[string]any{"path": `営業\x.txt`, "ignore": false})
	if st, f := state(); f.Status != "一部失敗 1 件" || st.Failures != 1 || st.Ignored != 0 {
		t.Errorf("after 戻す: status %q failures %d ignored %d", f.Status, st.Failures, st.Ignored)
	}
}
