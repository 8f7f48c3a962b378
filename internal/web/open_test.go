package web_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestOpenModes (issue 31): POST /api/open hands the opener the mode asked
// for, else the settings' openMode, with the hit's place and cell; a bad
// mode is refused and opens nothing; GET /api/indexes gives the page the
// default mode, and a hit carries its file's full path (no second lookup
// of source folders for the page).
func TestOpenModes(t *testing.T) {
	e := newEnv(t, fumibakoBinary(t))
	e.write("2024/見積.txt", []byte("りんご\n"))
	e.index()
	full, _ := filepath.EvalSymlinks(filepath.Join(e.root, "2024", "見積.txt"))
	const hit = `営業\2024\見積.txt`
	setMode := func(m string) {
		if _, err := e.ws.UpdateSettings(func(s *workspace.Settings) error { s.OpenMode = m; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name     string
		settings string
		body     map[string]any
		code     int
		want     *desktop.Target
	}{
		{"mode asked", "", map[string]any{"path": hit, "mode": "readOnly", "place": "本文", "cell": ""}, http.StatusOK,
			&desktop.Target{Path: full, Mode: desktop.ModeReadOnly, Place: "本文"}},
		{"default", "", map[string]any{"path": hit}, http.StatusOK, &desktop.Target{Path: full, Mode: desktop.ModeNormal}},
		{"settings' openMode", "new", map[string]any{"path": hit}, http.StatusOK, &desktop.Target{Path: full, Mode: desktop.ModeNew}},
		{"asked wins over settings", "new", map[string]any{"path": hit, "mode": "normal"}, http.StatusOK, &desktop.Target{Path: full, Mode: desktop.ModeNormal}},
		{"bad mode", "", map[string]any{"path": hit, "mode": "edit"}, http.StatusBadRequest, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			setMode(tt.settings)
			n := len(e.opened.gotTargets())
			resp, m := e.post("/api/open", tt.body)
			if resp.StatusCode != tt.code {
				t.Fatalf("POST /api/open = %d %v, want %d", resp.StatusCode, m, tt.code)
			}
			got := e.opened.gotTargets()[n:]
			switch {
			case tt.want == nil && len(got) != 0:
				t.Errorf("opened %+v, want nothing", got)
			case tt.want != nil && (len(got) != 1 || got[0] != *tt.want):
				t.Errorf("opened %+v, want %+v", got, *tt.want)
			}
		})
	}
	setMode("readOnly")
	var ix map[string]any
	e.getJSON("/api/indexes", &ix)
	if ix["openMode"] != "readOnly" {
		t.Errorf("/api/indexes openMode = %v, want readOnly", ix["openMode"])
	}
	// A hit's full path comes with the hit (the one lookup of its source
	// folder), not from a second map of source folders in /api/indexes.
	for _, k := range []string{"sources", "sep"} {
		if _, ok := ix[k]; ok {
			t.Errorf("/api/indexes has %q: %v", k, ix[k])
		}
	}
	hits := e.searchHits(url.Values{"q": {"りんご"}})
	if len(hits) != 1 || hits[0]["fullPath"] != full {
		t.Errorf("search りんご = %+v, want one hit with fullPath %s", hits, full)
	}
}

// TestOpenModeDefault: POST /api/open/mode stores the default through the
// settings key openMode (the one check of its values, any case); a bad or
// empty mode is refused and leaves the setting as it was.
func TestOpenModeDefault(t *testing.T) {
	e := newEnv(t, "")
	for _, tt := range []struct {
		mode string
		code int
		want string // settings' OpenMode after the request
	}{
		{"readOnly", http.StatusOK, "readOnly"},
		{"NEW", http.StatusOK, "new"},
		{"edit", http.StatusBadRequest, "new"},
		{"", http.StatusBadRequest, "new"},
		{"normal", http.StatusOK, ""},
	} {
		resp, m := e.post("/api/open/mode", map[string]any{"mode": tt.mode})
		if resp.StatusCode != tt.code {
			t.Errorf("POST /api/open/mode %q = %d %v, want %d", tt.mode, resp.StatusCode, m, tt.code)
		}
		st, err := e.ws.LoadSettings()
		if err != nil || st.OpenMode != tt.want {
			t.Errorf("after %q: OpenMode = %q (%v), want %q", tt.mode, st.OpenMode, err, tt.want)
		}
	}
}
