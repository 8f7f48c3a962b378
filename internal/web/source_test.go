package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/web"
	"github.com/fumibako/fumibako/internal/workspace"
)

// receivedEnv is a workspace holding a received index 受領 (its content
// folder, its ingest-list rows, an unconfirmed indexSources entry naming
// the sender's UNC path, as an import writes it) and the folder its files
// really are in now (moved).
func receivedEnv(t *testing.T) (*env, string) {
	e := newEnvWith(t, "", false, 1)
	moved := filepath.Join(filepath.Dir(e.root), "移した", "受領")
	files := []string{`2024\見積\a.txt`, `2024\見積\c.txt`, `b.xlsm`}
	var rows []ingestlist.Row
	for _, f := range files {
		p := filepath.Join(moved, filepath.FromSlash(strings.ReplaceAll(f, `\`, "/")))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("りんご "+f), 0o644)
		key := `受領\` + f
		if _, err := content.WriteFolder(content.Dir(e.ws.ContentRoot(), key), []extract.Place{{Name: "本文", Lines: []string{"りんご"}}}); err != nil {
			t.Fatal(err)
		}
		if err := bodyindex.Publish(content.Dir(e.ws.ContentRoot(), content.FolderOf(key)), nil); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, ingestlist.Row{RelPath: key, Updated: "2024/01/01 00:00:00", State: ingestlist.Done, IngestedAt: "2024/01/01 00:00:00"})
	}
	if err := ingestlist.WriteFile(e.ws.IngestList(), nil, rows); err != nil {
		t.Fatal(err)
	}
	s := &workspace.Settings{IndexSources: []workspace.IndexSource{{Name: "受領", Path: `\\srv\共有\受領`}}}
	if err := e.ws.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	return e, moved
}

// TestReceivedIndexOpen: through the web API, a received index's file
// opens only after its folder is confirmed or picked; a picked folder is
// searched in the relative folders' order and re-points the whole index;
// a macro-capable file opens as a read-only copy; a missing file asks for
// a folder.
func TestReceivedIndexOpen(t *testing.T) {
	e, moved := receivedEnv(t)
	hit := `受領\2024\見積\a.txt`
	steps := []struct {
		name   string
		api    string
		body   map[string]any
		before func()
		code   int
		want   map[string]string // fields of the answer that must contain these
		opened string            // prefix of the path opened, "" none
	}{
		{name: "unconfirmed: confirm dialog with the network warning", api: "/api/open", body: map[string]any{"path": hit},
			code: http.StatusConflict, want: map[string]string{"dialog": "confirm", "title": "元のフォルダを確かめてください", "folder": `\\srv\共有\受領`, "warning": "ネットワーク上"}},
		{name: "download refused too", api: "", body: map[string]any{"path": hit}, code: http.StatusConflict},
		{name: "picked folder without the file", api: "/api/source", body: map[string]any{"path": hit, "folder": filepath.Dir(moved)},
			code: http.StatusNotFound, want: map[string]string{"message": "a.txt は、選んだフォルダ"}},
		{name: "picked the year folder: root is its parent", api: "/api/source", body: map[string]any{"path": hit, "folder": filepath.Join(moved, "2024")},
			code: http.StatusOK, want: map[string]string{"message": "インデックス「受領」の元のフォルダを " + moved + " に変えました"}},
		{name: "opens", api: "/api/open", body: map[string]any{"path": hit},
			code: http.StatusOK, want: map[string]string{"message": "元のファイルを開きました"}, opened: filepath.Join(moved, "2024", "見積", "a.txt")},
		{name: "another file opens without asking", api: "/api/open", body: map[string]any{"path": `受領\2024\見積\c.txt`},
			code: http.StatusOK, opened: filepath.Join(moved, "2024", "見積", "c.txt")},
		{name: "macro-capable: read-only copy", api: "/api/open", body: map[string]any{"path": `受領\b.xlsm`},
			code: http.StatusOK, want: map[string]string{"message": "読み取り専用のコピー"}, opened: filepath.Join(e.ws.TmpRoot(), "readonly")},
		{name: "missing file: missing dialog", api: "/api/open", body: map[string]any{"path": `受領\2024\見積\c.txt`},
			before: func() { os.Remove(filepath.Join(moved, "2024", "見積", "c.txt")) },
			code:   http.StatusNotFound, want: map[string]string{"dialog": "missing", "title": "c.txt が見つかりません", "index": "受領"}},
	}
	for _, tt := range steps {
		t.Run(tt.name, func(t *testing.T) {
			if tt.before != nil {
				tt.before()
			}
			n := len(e.opened.got())
			var resp *http.Response
			m := map[string]any{}
			if tt.api == "" {
				resp = e.do(http.MethodGet, "/api/file?path="+strings.ReplaceAll(hit, `\`, "%5C"), "", nil)
			} else {
				resp, m = e.post(tt.api, tt.body)
			}
			if resp.StatusCode != tt.code {
				t.Fatalf("%s %v = %d %v, want %d", tt.api, tt.body, resp.StatusCode, m, tt.code)
			}
			for k, v := range tt.want {
				if got, _ := m[k].(string); !strings.Contains(got, v) {
					t.Errorf("%s = %q, want it to contain %q (%v)", k, got, v, m)
				}
			}
			got := e.opened.got()[n:]
			if tt.opened == "" && len(got) > 0 || tt.opened != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.opened)) {
				t.Fatalf("opened %v, want %q", got, tt.opened)
			}
			if strings.HasSuffix(tt.opened, "readonly") {
				st, err := os.Stat(got[0])
				data, _ := os.ReadFile(got[0])
				if err != nil || st.Mode().Perm()&0o222 != 0 || string(data) != `りんご b.xlsm` {
					t.Errorf("read-only copy %s: %v %v %q", got[0], err, st.Mode(), data)
				}
			}
		})
	}
	s, err := e.ws.LoadSettings()
	if err != nil {
		t.Fatal(err)
	}
	if src, ok := s.Source("受領"); !ok || src.Path != moved || !src.Confirmed || len(s.Roots) != 0 {
		t.Errorf("settings after the pick: %+v, roots %v", s.IndexSources, s.Roots)
	}
	// Its index row: received, confirmed, its files counted.
	var st web.StateView
	e.getJSON("/api/state", &st)
	if len(st.Folders) != 1 || !st.Folders[0].Received || !st.Folders[0].Confirmed || st.Folders[0].Files != 3 || st.Folders[0].Path != moved || st.Folders[0].Status != "受け取ったインデックス" {
		t.Errorf("index rows = %+v", st.Folders)
	}
}
