package web_test

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserIndexImport: ［インポート…］ with a zip whose index name is
// in use opens the clash dialog; another name imports it, searchable at
// once; the row's ［エクスポート…］ is there.
func TestBrowserIndexImport(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	a := newEnv(t, "")
	sampleIndex(a)
	resp := a.do(http.MethodGet, "/api/index/export?name="+url.QueryEscape("営業")+"&token="+a.srv.Token(), "", nil)
	data, _ := io.ReadAll(resp.Body)
	zipPath := filepath.Join(t.TempDir(), "営業.zip")
	os.WriteFile(zipPath, data, 0o644)

	b := newBrowser(t)
	e := newEnv(t, "") // its root is 営業 too: a clash
	b.step("open the page",
		chromedp.Navigate(e.url("/")),
		waitJS(`document.body.dataset.ready === '1'`),
		chromedp.WaitVisible(css(`#folders tbody tr[data-name="営業"] td.ops button[data-what="エクスポート"]`)))
	b.step("import",
		chromedp.SetUploadFiles(css(`#index-import-file`), []string{zipPath}),
		chromedp.WaitVisible(css(`#import-name`)))
	if d := get(b, "clash dialog", textOf(`#dialog`)); !strings.Contains(d, "インデックス「営業」は既にあります。") {
		t.Errorf("clash dialog = %q", d)
	}
	b.step("another name",
		chromedp.SetValue(css(`#import-name`), "受領"),
		click(`#import-rename`),
		waitJS(`document.getElementById('statusbar').textContent.startsWith('インデックス「受領」を取り込みました')`))
	if hits := hitsOf(e, "りんご", "受領"); len(hits) != len(hitsOf(a, "りんご", "営業")) || len(hits) == 0 {
		t.Errorf("hits after the import: %q", hits)
	}
}
