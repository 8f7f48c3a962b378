package web_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// TestBrowserHiddenSheets (issue 31): the index editor's checkbox turns on
// hidden sheets for a root; the next run reads the workbook (written by
// excelize) again and its hidden sheet's hit shows （非表示） in the
// results (the group's first hit, collapsed as the page shows it).
func TestBrowserHiddenSheets(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	b := newBrowser(t)
	e := newEnv(t, fumibakoBinary(t))
	x := excelize.NewFile()
	x.SetSheetName("Sheet1", "見積")
	x.SetCellValue("見積", "A1", "見積 VISIBLEWORD")
	x.NewSheet("原価")
	x.SetCellValue("原価", "B3", "原価率 HIDDENSHEETWORD")
	if err := x.SetSheetVisible("原価", false); err != nil {
		t.Fatal(err)
	}
	buf, err := x.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	e.write("原価表.xlsx", buf.Bytes())
	e.index()

	labels := `[...document.querySelectorAll('#results .place')].map(p => p.textContent).join('|')`
	b.step("search without hidden sheets",
		chromedp.Navigate(e.url("/")),
		waitJS(`document.body.dataset.ready === '1'`),
		click(`#nav-search`),
		chromedp.WaitVisible(css(`#q`)),
		chromedp.SendKeys(css(`#q`), "HIDDENSHEETWORD"),
		waitJS(`window.__fumibako.done === 'HIDDENSHEETWORD'`))
	if got := get(b, "labels", eval[string](labels)); strings.Contains(got, "非表示") {
		t.Errorf("hidden sheet found without the setting: %q", got)
	}

	b.step("turn hidden sheets on in the editor",
		click(`#nav-index`),
		chromedp.WaitVisible(css(`#folders tbody tr[data-name="営業"]`)),
		click(`#folders tbody tr[data-name="営業"] button[data-what="編集"]`),
		chromedp.WaitVisible(css(`#rename-hidden-sheets`)),
		click(`#rename-hidden-sheets`),
		click(`#rename-ok`),
		waitJS(`document.getElementById('statusbar').textContent.includes('非表示のシートを取り込みます')`))
	e.index()
	var apiLabels []string
	for _, h := range e.searchHits(url.Values{"q": {"HIDDENSHEETWORD"}}) {
		apiLabels = append(apiLabels, fmt.Sprint(h["label"]))
	}
	if !slices.Contains(apiLabels, "[シート]原価（非表示）!B3") {
		t.Fatalf("after the switch and a run, the API's labels = %q", apiLabels)
	}

	b.step("search again",
		click(`#nav-search`),
		chromedp.WaitVisible(css(`#q`)),
		chromedp.Evaluate[void](`(q => { q.value = ''; q.dispatchEvent(new Event('input')); })(document.getElementById('q'))`),
		chromedp.SendKeys(css(`#q`), "HIDDENSHEETWORD"),
		waitJS(`window.__fumibako.done === 'HIDDENSHEETWORD'`),
		waitJS(labels+`.includes('[シート]原価（非表示）!B3')`))
	b.screenshot("hidden-sheet")
}
