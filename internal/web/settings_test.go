package web_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSettingsAPI (issue 32): GET lists every key with its value; POST
// checks every value before it saves any, and answers a refusal in
// Japanese.
func TestSettingsAPI(t *testing.T) {
	e := newEnv(t, "")
	for _, tc := range []struct {
		name   string
		values map[string]any
		code   int
		msg    string
	}{
		{name: "good", values: map[string]any{"workers": 2, "search.kinds": []string{"pdf", "excel"}, "openMode": "new", "search.shapes": false}, code: 200,
			msg: ""},
		{name: "unknown key", values: map[string]any{"workers": 5, "wrkers": 3}, code: 400, msg: "設定「wrkers」はありません。fumibako settings list で一覧を表示できます。"},
		{name: "bad value", values: map[string]any{"workers": 5, "search.case": "yes"}, code: 400, msg: "設定「search.case」には on か off を指定してください（指定された値: 「yes」）。"},
		{name: "read-only", values: map[string]any{"workspace": "/tmp"}, code: 400, msg: "設定「workspace」は変えられません。インデックスと設定の置き場所です。--workspace か環境変数 FUMIBAKO_WORKSPACE で変えます。"},
		{name: "fraction", values: map[string]any{"workers": 2.5}, code: 400, msg: "設定「workers」には 0 から 64 までの整数を指定してください（指定された値: 「2.5」）。"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, m := e.post("/api/settings", map[string]any{"values": tc.values})
			if resp.StatusCode != tc.code || (tc.msg != "" && m["message"] != tc.msg) {
				t.Errorf("POST = %d %v, want %d %q", resp.StatusCode, m, tc.code, tc.msg)
			}
		})
	}
	// Only the good request was saved: a refused one saves nothing of it.
	data, _ := os.ReadFile(e.ws.SettingsPath())
	var raw struct {
		Workers  int            `json:"workers"`
		OpenMode string         `json:"openMode"`
		Search   map[string]any `json:"search"`
	}
	json.Unmarshal(data, &raw)
	if raw.Workers != 2 || raw.OpenMode != "new" || raw.Search["shapes"] != false || len(raw.Search["kinds"].([]any)) != 2 {
		t.Errorf("settings.json = %s", data)
	}
	var got struct {
		Settings []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"settings"`
	}
	e.getJSON("/api/settings", &got)
	values := map[string]any{}
	for _, s := range got.Settings {
		values[s.Key] = s.Value
	}
	if values["workers"] != 2.0 || values["search.shapes"] != false || values["search.comments"] != true || values["workspace"] != e.ws.Root {
		t.Errorf("GET /api/settings = %v", values)
	}
}

// TestDirsAPI (issue 32): the folder picker lists subfolders only, and
// refuses a relative or unreadable folder with a Japanese message.
func TestDirsAPI(t *testing.T) {
	e := newEnv(t, "")
	for _, d := range []string{"b部", "A部", ".hidden", "A部/下"} {
		os.MkdirAll(filepath.Join(e.root, filepath.FromSlash(d)), 0o755)
	}
	e.write("file.txt", []byte("x"))
	var v struct {
		Path, Parent string
		Dirs         []struct{ Name, Path string }
	}
	resp, m := e.post("/api/dirs", map[string]any{"path": e.root})
	data, _ := json.Marshal(m)
	json.Unmarshal(data, &v)
	if resp.StatusCode != 200 || v.Path != e.root || v.Parent != filepath.Dir(e.root) || len(v.Dirs) != 2 ||
		v.Dirs[0].Name != "A部" || v.Dirs[1].Name != "b部" || v.Dirs[0].Path != filepath.Join(e.root, "A部") {
		t.Errorf("dirs of the root = %d %+v", resp.StatusCode, v)
	}
	// The starting places: home first, then the drives (/ here).
	t.Setenv("HOME", filepath.Dir(e.root))
	t.Setenv("USERPROFILE", filepath.Dir(e.root))
	resp, m = e.post("/api/dirs", map[string]any{"path": ""})
	data, _ = json.Marshal(m)
	v.Dirs = nil
	json.Unmarshal(data, &v)
	if resp.StatusCode != 200 || len(v.Dirs) < 2 || v.Dirs[0].Name != "ホーム" || v.Dirs[0].Path != filepath.Dir(e.root) {
		t.Errorf("places = %d %+v", resp.StatusCode, v)
	}
	for _, tc := range []struct{ path, msg string }{
		{"共有/営業", "フォルダ「共有/営業」は絶対パスではありません。"},
		{filepath.Join(e.root, "ない"), "フォルダ「" + filepath.Join(e.root, "ない") + "」を開けません（見つからないか、読み取る権限がありません）。"},
	} {
		resp, m := e.post("/api/dirs", map[string]any{"path": tc.path})
		if resp.StatusCode == http.StatusOK || m["message"] != tc.msg {
			t.Errorf("dirs %q = %d %v, want %q", tc.path, resp.StatusCode, m, tc.msg)
		}
	}
	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		locked := filepath.Join(e.root, "A部")
		os.Chmod(locked, 0)
		defer os.Chmod(locked, 0o755)
		if resp, m := e.post("/api/dirs", map[string]any{"path": locked}); resp.StatusCode != http.StatusForbidden || m["message"] == nil {
			t.Errorf("unreadable folder = %d %v", resp.StatusCode, m)
		}
	}
	// Like every state-changing call, it needs the session token.
	if resp := e.do(http.MethodPost, "/api/dirs", `{"path": "/"}`, map[string]string{"X-Fumibako-Token": ""}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("without the token = %d", resp.StatusCode)
	}
}
