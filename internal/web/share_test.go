package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/web"
)

// hitsOf returns the hits of a search as path|place|row|text, sorted.
func hitsOf(e *env, q string, index string) []string {
	var out []string
	for _, l := range e.search("q=" + url.QueryEscape(q)) {
		if l.Type == "hit" && l.Index == index {
			out = append(out, fmt.Sprintf("%s|%s|%s|%d|%s", l.Path, l.Label, l.PlaceLabel, l.Row, l.Text))
		}
	}
	slices.Sort(out)
	return out
}

func (e *env) importZip(zip []byte, query string) (*http.Response, map[string]any) {
	e.t.Helper()
	resp := e.do(http.MethodPost, "/api/index/import"+query, string(zip), map[string]string{"Content-Type": "application/zip"})
	return resp, decode(e.t, resp)
}

// TestIndexExportImportAPI: ［エクスポート…］ in one workspace, ［インポート…］
// in another under another name, the same hits there; a clash offers the
// choices; a broken zip is refused with its text.
func TestIndexExportImportAPI(t *testing.T) {
	a := newEnv(t, "")
	sampleIndex(a)
	resp := a.do(http.MethodGet, "/api/index/export?name="+url.QueryEscape("営業")+"&token="+a.srv.Token(), "", nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/zip" ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export: %s %v", resp.Status, resp.Header)
	}
	zip, _ := io.ReadAll(resp.Body)
	if r := a.do(http.MethodGet, "/api/index/export?name="+url.QueryEscape("営業")+"&token=x", "", nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("export without the token: %s", r.Status)
	}
	if r := a.do(http.MethodGet, "/api/index/export?name=無い&token="+a.srv.Token(), "", nil); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("export of no index: %s", r.Status)
	}

	b := newEnvWith(t, "", false, 1)
	resp, body := b.importZip(zip, "?name="+url.QueryEscape("受領"))
	if resp.StatusCode != http.StatusOK || !strings.Contains(fmt.Sprint(body["message"]), "インデックス「受領」を取り込みました") {
		t.Fatalf("import: %s %v", resp.Status, body)
	}
	for _, q := range []string{"りんご", "納期", "10 箱", "見出し"} {
		want, got := hitsOf(a, q, "営業"), hitsOf(b, q, "受領")
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("search %q: got %q, want %q", q, got, want)
		}
	}
	// The search tree lists the received index.
	var indexes, tree any
	b.getJSON("/api/indexes", &indexes)
	b.getJSON("/api/tree?path="+url.QueryEscape("受領"), &tree)
	if !strings.Contains(fmt.Sprint(indexes), "受領") || !strings.Contains(fmt.Sprint(tree), "2024") {
		t.Errorf("the search tree lacks the received index: %v %v", indexes, tree)
	}

	resp, body = b.importZip(zip, "?name="+url.QueryEscape("受領"))
	if resp.StatusCode != http.StatusConflict || body["error"] != "clash" || body["name"] != "受領" {
		t.Errorf("clash: %s %v", resp.Status, body)
	}
	if resp, body = b.importZip(zip, "?name="+url.QueryEscape("受領")+"&overwrite=1"); resp.StatusCode != http.StatusOK {
		t.Errorf("overwrite: %s %v", resp.Status, body)
	}
	resp, body = b.importZip(zip[:len(zip)/2], "")
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(fmt.Sprint(body["message"]), "壊れているため取り込めません") {
		t.Errorf("truncated zip: %s %v", resp.Status, body)
	}
	resp = b.do(http.MethodPost, "/api/index/import", string(zip), map[string]string{"Content-Type": "application/zip", web.TokenHeader: ""})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("import without the token: %s", resp.Status)
	}
	resp = b.do(http.MethodPost, "/api/index/import", string(zip), map[string]string{"Content-Type": "text/plain"})
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("import as a form: %s", resp.Status)
	}
}
