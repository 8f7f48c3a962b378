package web_test

import (
	"net/http"
	"testing"

	"github.com/fumibako/fumibako/internal/web"
)

// TestFolderOCRImages: POST /api/folders/ocr switches a root's ocrImages
// (issue 29), and the state's index row shows it.
func TestFolderOCRImages(t *testing.T) {
	e := newEnv(t, "")
	tests := []struct {
		name string
		body map[string]any
		code int
		want bool // the root's ocrImages afterwards
	}{
		{"on", map[string]any{"name": "営業", "ocrImages": true}, http.StatusOK, true},
		{"unknown index", map[string]any{"name": "総務", "ocrImages": false}, http.StatusBadRequest, true},
		{"off", map[string]any{"name": "営業", "ocrImages": false}, http.StatusOK, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if resp, m := e.post("/api/folders/ocr", tt.body); resp.StatusCode != tt.code {
				t.Fatalf("POST /api/folders/ocr %v = %d %v, want %d", tt.body, resp.StatusCode, m, tt.code)
			}
			s, err := e.ws.LoadSettings()
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Roots[0].OCRImages; got != tt.want {
				t.Errorf("settings ocrImages = %v, want %v", got, tt.want)
			}
			var st web.StateView
			e.getJSON("/api/state", &st)
			if len(st.Folders) != 1 || st.Folders[0].OCRImages != tt.want {
				t.Errorf("state folders = %+v, want ocrImages %v", st.Folders, tt.want)
			}
		})
	}
}
