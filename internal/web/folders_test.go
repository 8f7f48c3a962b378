package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/web"
	"github.com/fumibako/fumibako/internal/workspace"
)

func TestFolderEdits(t *testing.T) {
	e := newEnv(t, "")
	other := filepath.Join(filepath.Dir(e.root), "経理")
	os.MkdirAll(other, 0o755)
	tests := []struct {
		name     string
		path     string
		body     map[string]any
		want     int
		message  string   // substring of the answer's message
		settings []string // index names in settings.json afterwards
	}{
		{"add", "/api/folders/add", map[string]any{"path": `"` + other + `"`}, http.StatusOK, "インデックス「経理」を追加しました", []string{"営業", "経理"}},
		{"add again", "/api/folders/add", map[string]any{"path": other}, http.StatusBadRequest, "」のインデックス「経理」が既にあります。", []string{"営業", "経理"}},
		{"add empty", "/api/folders/add", map[string]any{"path": "  "}, http.StatusBadRequest, "元のフォルダを指定してください。", []string{"営業", "経理"}},
		{"add inside", "/api/folders/add", map[string]any{"path": filepath.Join(e.root)}, http.StatusBadRequest, "が既にあります。", []string{"営業", "経理"}},
		{"rename", "/api/folders/rename", map[string]any{"name": "経理", "newName": "経理2024"}, http.StatusOK, "インデックスを変更しました（名前「経理」 → 「経理2024」）", []string{"営業", "経理2024"}},
		{"rename to a bad name", "/api/folders/rename", map[string]any{"name": "経理2024", "newName": "a/b"}, http.StatusBadRequest, "インデックス名「a/b」は使えません", []string{"営業", "経理2024"}},
		{"rename to a taken name", "/api/folders/rename", map[string]any{"name": "経理2024", "newName": "営業"}, http.StatusBadRequest, "インデックス名「営業」は既に使われています。", []string{"営業", "経理2024"}},
		{"move (path edit)", "/api/folders/rename", map[string]any{"name": "経理2024", "newName": "経理2024", "path": filepath.Join(filepath.Dir(other), "経理移動")}, http.StatusOK, "インデックスを変更しました（場所 " + other + " → " + filepath.Join(filepath.Dir(other), "経理移動") + "） ※ フォルダが今は見つかりません", []string{"営業", "経理2024"}},
		{"move onto a root", "/api/folders/rename", map[string]any{"name": "経理2024", "path": e.root}, http.StatusBadRequest, "が既にあります。", []string{"営業", "経理2024"}},
		{"uncheck", "/api/folders/enable", map[string]any{"name": "経理2024", "enabled": false}, http.StatusOK, "", []string{"営業", "経理2024"}},
		{"remove unknown", "/api/folders/remove", map[string]any{"name": "総務"}, http.StatusBadRequest, "インデックス「総務」はありません。", []string{"営業", "経理2024"}},
		{"remove", "/api/folders/remove", map[string]any{"name": "経理2024"}, http.StatusOK, "インデックス「経理2024」を削除しました", []string{"営業"}},
		{"add missing (issue 30)", "/api/folders/add", map[string]any{"path": filepath.Join(filepath.Dir(other), "ない")}, http.StatusOK, "フォルダが今は見つかりません: ", []string{"営業", "ない"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, m := e.post(tt.path, tt.body)
			if resp.StatusCode != tt.want {
				t.Fatalf("POST %s = %d %v, want %d", tt.path, resp.StatusCode, m, tt.want)
			}
			if msg, _ := m["message"].(string); !strings.Contains(msg, tt.message) {
				t.Errorf("message = %q, want it to contain %q", msg, tt.message)
			}
			s, err := e.ws.LoadSettings()
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, r := range s.Roots {
				names = append(names, r.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.settings, ",") {
				t.Errorf("settings roots = %v, want %v", names, tt.settings)
			}
		})
	}
}

// TestEditsRefusedWhileLocked: another process's run holds the lock; the
// page says so and refuses edits with the reference's text.
func TestEditsRefusedWhileLocked(t *testing.T) {
	e := newEnv(t, "")
	lock, err := e.ws.Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	var st web.StateView
	e.getJSON("/api/state", &st)
	if !st.Run.Locked || st.Run.LockMessage != workspace.MsgLocked {
		t.Errorf("state run = %+v, want locked with %q", st.Run, workspace.MsgLocked)
	}
	tests := []struct {
		path string
		body map[string]any
		want string
	}{
		{"/api/folders/add", map[string]any{"path": t.TempDir()}, "インデックス作成中はインデックスを追加できません。インデックス作成が終わるまでお待ちください（［中止］で止められます）。"},
		{"/api/folders/rename", map[string]any{"name": "営業", "newName": "x"}, "インデックス作成中はインデックスを編集できません。"},
		{"/api/folders/remove", map[string]any{"name": "営業"}, "インデックス作成中はインデックスを削除できません。"},
		{"/api/run/start", map[string]any{}, workspace.MsgLocked},
	}
	for _, tt := range tests {
		resp, m := e.post(tt.path, tt.body)
		if resp.StatusCode != http.StatusConflict || !strings.HasPrefix(m["message"].(string), tt.want) {
			t.Errorf("POST %s = %d %v, want 409 %q", tt.path, resp.StatusCode, m, tt.want)
		}
	}
	// Checking and unchecking stays possible: the run read its settings.
	if resp, m := e.post("/api/folders/enable", map[string]any{"name": "営業", "enabled": false}); resp.StatusCode != http.StatusOK {
		t.Errorf("enable while locked = %d %v", resp.StatusCode, m)
	}
}

func TestStateAndFailures(t *testing.T) {
	e := newEnv(t, "")
	e.write("a.txt", []byte("a"))
	rows := []ingestlist.Row{
		{RelPath: `営業\a.txt`, Updated: "2024/01/01 00:00:00", Size: 1, State: ingestlist.Done, TSVCount: 1, HasTSVCount: true, IngestedAt: "2024/04/01 10:00:00", Version: 1},
		{RelPath: `営業\b.xlsx`, Updated: "2024/01/01 00:00:00", Size: 1, State: ingestlist.Failed, IngestedAt: "2024/04/01 09:00:00", Error: "パスワードが設定されているため取り込めません。"},
		{RelPath: `営業\c.docx`, Updated: "2024/01/01 00:00:00", Size: 1, State: ingestlist.Failed, IngestedAt: "2024/04/02 09:00:00"},
		{RelPath: `営業\d.xls`, Updated: "2024/01/01 00:00:00", Size: 1, State: ingestlist.Pending, Error: "LibreOffice が見つからないため取り込めません"},
		{RelPath: `営業\e.txt`, Updated: "2024/01/01 00:00:00", Size: 1, State: ingestlist.Pending},
	}
	folders := []ingestlist.Folder{{Path: e.root, Name: "営業"}}
	if err := ingestlist.WriteFile(e.ws.IngestList(), folders, rows); err != nil {
		t.Fatal(err)
	}
	var st web.StateView
	e.getJSON("/api/state", &st)
	if len(st.Folders) != 1 {
		t.Fatalf("folders = %+v", st.Folders)
	}
	f := st.Folders[0]
	want := web.FolderView{Name: "営業", Path: f.Path, Enabled: true, Folder: "ok", Files: 5, Done: 1, Pending: 1, Failed: 3, Last: "2024/04/02 09:00", Status: "一部失敗 3 件"}
	if f != want {
		t.Errorf("folder = %+v, want %+v", f, want)
	}
	if st.TotalFiles != 5 || st.Failures != 3 || st.Interrupted != 1 || !st.HasIndex {
		t.Errorf("state totals = %d files, %d failures, %d interrupted, index %v", st.TotalFiles, st.Failures, st.Interrupted, st.HasIndex)
	}
	var fl struct {
		Count int
		Rows  []web.FailureView
	}
	e.getJSON("/api/failures", &fl)
	wantRows := []web.FailureView{
		{Path: `営業\c.docx`, Msg: "（原因は記録されていません）", At: "2024/04/02 09:00:00"},
		{Path: `営業\b.xlsx`, Msg: "パスワードが設定されているため取り込めません。", At: "2024/04/01 09:00:00"},
		{Path: `営業\d.xls`, Msg: "LibreOffice が見つからないため取り込めません", At: ""},
	}
	if fl.Count != 3 || len(fl.Rows) != 3 {
		t.Fatalf("failures = %+v", fl)
	}
	for i, r := range wantRows {
		if fl.Rows[i] != r {
			t.Errorf("failure %d = %+v, want %+v", i, fl.Rows[i], r)
		}
	}
	// A root whose folder is gone.
	os.RemoveAll(e.root)
	e.getJSON("/api/state", &st)
	if st.Folders[0].Folder != "missing" {
		t.Errorf("folder state = %q, want missing", st.Folders[0].Folder)
	}
}
