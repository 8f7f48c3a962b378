package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserNoIndex (issue 18): with no index at all, a search says what
// to do (add a folder and build its index) and does not suggest regex.
func TestBrowserNoIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	b := newBrowser(t)
	e := newEnvWith(t, "", false, 1)
	b.step("search without an index",
		chromedp.Navigate(e.url("/")),
		waitJS(`document.body.dataset.ready === '1'`),
		click(`#nav-search`),
		chromedp.WaitVisible(css(`#q`)),
		waitJS(`document.getElementById('target-list').textContent.includes('インデックスがありません')`),
		chromedp.SendKeys(css(`#q`), "見積書"),
		waitJS(`window.__fumibako.done === '見積書'`),
		waitJS(`document.getElementById('notes').textContent !== ''`))
	notes := get(b, "notes", eval[string](`document.getElementById('notes').textContent`))
	if !strings.Contains(notes, "インデックスがありません。インデックス管理でフォルダを追加して、インデックスを作成してください。") {
		t.Errorf("notes without an index = %q, want what to do", notes)
	}
	if strings.Contains(notes, "正規表現") {
		t.Errorf("notes without an index suggest regex: %q", notes)
	}
	if counts := get(b, "counts", eval[string](`document.getElementById('counts').textContent`)); !strings.HasPrefix(counts, "見つかりませんでした") {
		t.Errorf("counts = %q", counts)
	}
	b.screenshot("no-index")
}
