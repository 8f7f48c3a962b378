package web_test

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestSearchExcludesAPI: the search-target tree's exclusions are saved in
// settings.json through POST /api/excludes and handed to every page by
// GET /api/indexes; a path that is no index path is refused; a malformed
// searchExcludes in the file is ignored with a notice on the state.
func TestSearchExcludesAPI(t *testing.T) {
	e := newEnv(t, "")
	var ix struct{ Excludes []workspace.SearchExclude }
	e.getJSON("/api/indexes", &ix)
	if ix.Excludes == nil || len(ix.Excludes) != 0 {
		t.Fatalf("excludes of fresh settings = %#v, want []", ix.Excludes)
	}
	want := []workspace.SearchExclude{{Path: `営業\2024`, Subfolders: true}, {Path: "営業", Subfolders: false}}
	if resp, body := e.post("/api/excludes", map[string]any{"excludes": want}); resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/excludes = %s %v", resp.Status, body)
	}
	st, err := e.ws.LoadSettings()
	if err != nil || !slices.Equal(st.SearchExcludes, want) || len(st.Roots) != 1 {
		t.Fatalf("settings after POST: %+v, %v", st, err)
	}
	e.getJSON("/api/indexes", &ix)
	if !slices.Equal(ix.Excludes, want) {
		t.Errorf("GET /api/indexes excludes = %+v, want %+v", ix.Excludes, want)
	}
	for _, bad := range []string{"", "../x", `営業\..\x`} {
		if resp, _ := e.post("/api/excludes", map[string]any{"excludes": []workspace.SearchExclude{{Path: bad}}}); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("exclusion %q: %s, want 400", bad, resp.Status)
		}
	}
	if resp := e.do(http.MethodPost, "/api/excludes", `{"excludes":[]}`, map[string]string{"X-Fumibako-Token": ""}); resp.StatusCode == http.StatusOK {
		t.Errorf("POST without the token = %s", resp.Status)
	}

	// A hand-edited file with a malformed value: the roots stay, the
	// value is ignored and the state says so.
	data, _ := os.ReadFile(e.ws.SettingsPath())
	broken := strings.Replace(string(data), `"searchExcludes": [`, `"searchExcludes": [7, `, 1)
	if broken == string(data) {
		t.Fatalf("settings.json has no searchExcludes list:\n%s", data)
	}
	os.WriteFile(e.ws.SettingsPath(), []byte(broken), 0o644)
	var state struct {
		Notice  string
		Folders []struct{ Name string }
	}
	e.getJSON("/api/state", &state)
	if !strings.Contains(state.Notice, "searchExcludes") || len(state.Folders) != 1 {
		t.Errorf("state with a malformed searchExcludes: notice %q, %d folders", state.Notice, len(state.Folders))
	}
	e.getJSON("/api/indexes", &ix)
	if !slices.Equal(ix.Excludes, want) {
		t.Errorf("excludes with one bad entry = %+v, want the good ones %+v", ix.Excludes, want)
	}
}
