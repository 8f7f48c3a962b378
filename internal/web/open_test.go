package web_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestOpenModes (issue 31): POST /api/open hands the opener the mode asked
// for, else the settings' openMode, with the hit's place and cell; a bad
// mode is refused and opens nothing; GET /api/indexes gives the page the
// default mode and each index's source folder (for full paths).
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
	var ix struct {
		Sources  map[string]string
		Sep      string
		OpenMode string
	}
	e.getJSON("/api/indexes", &ix)
	if ix.OpenMode != "readOnly" || ix.Sources["営業"] != e.root || ix.Sep != string(filepath.Separator) {
		t.Errorf("/api/indexes = %+v, want openMode readOnly and 営業 at %s", ix, e.root)
	}
}
