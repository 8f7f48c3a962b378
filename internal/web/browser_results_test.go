package web_test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestBrowserResults (issue 18): a hit whose file was edited after
// indexing is marked, a word only in a file name gives a name hit, a
// collapsed group shows its first hit and the file's date, sort by date
// and the date filter work, and a search without hits clears the preview.
func TestBrowserResults(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	b := newBrowser(t)
	e := newEnv(t, fumibakoBinary(t))
	at := func(s string) time.Time {
		v, _ := time.ParseInLocation("2006-01-02", s, time.Local)
		return v.Add(9 * time.Hour)
	}
	for _, f := range []struct{ name, text, date string }{
		{"古い見積.txt", "りんご 古い行\n", "2020-01-15"},
		{"新しい報告.txt", "りんご 新しい行\n", "2025-06-01"},
		{"編集する.txt", "りんご 編集前\n", "2022-03-03"},
		{"旧システム移行.txt", "中身は関係ない\n", "2023-01-01"},
	} {
		os.Chtimes(e.write(f.name, []byte(f.text)), at(f.date), at(f.date))
	}
	e.write("x.txt", pngBytes) // fails: marked 無視する below
	e.index()
	e.write("編集する.txt", []byte("りんご 編集後の行\n"))

	group := func(name string) string {
		return `[...document.querySelectorAll('#results .group')].find(g => g.querySelector('.fname').textContent === '` + name + `')`
	}
	b.step("search",
		chromedp.Navigate(e.url("/")),
		waitJS(`document.body.dataset.ready === '1'`),
		click(`#nav-search`),
		chromedp.WaitVisible(css(`#q`)),
		chromedp.SendKeys(css(`#q`), "りんご"),
		waitJS(`window.__fumibako.done === 'りんご'`),
		waitJS(`document.querySelectorAll('#results .group').length === 3`),
		// The edited file is marked once the check has answered.
		waitJS(group("編集する.txt")+`.querySelector('.fresh').textContent.includes('インデックス作成後に変更されています')`))
	for _, name := range []string{"古い見積.txt", "新しい報告.txt"} {
		if m := get(b, "marker", eval[string](group(name)+`.querySelector('.fresh').textContent`)); m != "" {
			t.Errorf("%s marked %q", name, m)
		}
	}
	// Collapsed, each group shows its first hit line and the file's date.
	first := get(b, "first line", eval[string](group("古い見積.txt")+`.querySelector('.gfirst').innerText`))
	date := get(b, "date", eval[string](group("古い見積.txt")+`.querySelector('.gdate').textContent`))
	if !strings.Contains(first, "りんご 古い行") || date != "2020/01/15 09:00" {
		t.Errorf("collapsed group: first line %q, date %q", first, date)
	}
	b.screenshot("results")

	// Sort by date, newest first; then the date filter.
	names := `[...document.querySelectorAll('#results .group')].filter(g => !g.hidden).map(g => g.querySelector('.fname').textContent).join(',')`
	b.step("sort by date", chromedp.Evaluate[void](`(s => { s.value = 'date'; s.dispatchEvent(new Event('change')); })(document.getElementById('sort'))`))
	if got := get(b, "sorted", eval[string](names)); got != "新しい報告.txt,編集する.txt,古い見積.txt" {
		t.Errorf("sorted by date = %s", got)
	}
	b.step("date filter", chromedp.Evaluate[void](`(d => { d.value = '2021-01-01'; d.dispatchEvent(new Event('change')); })(document.getElementById('date-from'))`))
	if got := get(b, "filtered", eval[string](names)); got != "新しい報告.txt,編集する.txt" {
		t.Errorf("from 2021-01-01 = %s", got)
	}
	b.step("no date filter", chromedp.Evaluate[void](`(d => { d.value = ''; d.dispatchEvent(new Event('change')); })(document.getElementById('date-from'))`),
		chromedp.Evaluate[void](`(s => { s.value = ''; s.dispatchEvent(new Event('change')); })(document.getElementById('sort'))`))

	// Open a group and a hit: the preview shows it.
	b.step("preview",
		click(`#results .ghead`),
		click(`#results .hrow`),
		waitJS(`document.getElementById('preview-title').textContent !== ''`))

	// A word that is only in a file name finds the file.
	b.step("name hit",
		chromedp.Evaluate[void](`document.getElementById('q').value = ''`),
		chromedp.SendKeys(css(`#q`), "旧システム"),
		waitJS(`window.__fumibako.done === '旧システム'`),
		waitJS(`document.querySelectorAll('#results .group').length === 1`))
	if k := get(b, "name hit", eval[string](`document.querySelector('#results .group .gfirst .kind').textContent + ':' + document.querySelector('#results .group .fname').textContent`)); k != "ファイル名:旧システム移行.txt" {
		t.Errorf("name hit = %q", k)
	}
	// The search screen says when the index was last updated.
	if u := get(b, "updated", textOf(`#index-updated`)); !strings.HasPrefix(u, "インデックスの最終取り込み: 営業 "+time.Now().Format("2006/01/02")) {
		t.Errorf("index updated line = %q", u)
	}

	// An Excel hit far below the first row: the preview shows the sheet's
	// first row frozen above the rows around the hit.
	lines := []string{"品名\t数量\t単価"}
	for i := 2; i < 60; i++ {
		lines = append(lines, "みかん\t"+strconv.Itoa(i)+"\t100")
	}
	lines = append(lines, "ぶどう特選\t5\t900")
	e.publish("大きい表.xlsx", extract.Place{Name: "売上", Lines: lines})
	b.step("frozen header",
		chromedp.Evaluate[void](`document.getElementById('q').value = ''`),
		chromedp.SendKeys(css(`#q`), "ぶどう特選"),
		waitJS(`window.__fumibako.done === 'ぶどう特選'`),
		chromedp.WaitVisible(css(`#results .ghead`)),
		click(`#results .ghead`),
		click(`#results .hrow`),
		chromedp.WaitVisible(css(`#preview-sheet tr.sel td.match`)))
	frozen := get(b, "frozen row", eval[string](`(r => r ? r.innerText.replace(/\s+/g, ' ').trim() : '')(document.querySelector('#preview-sheet thead tr.frozen'))`))
	if frozen != "1 品名 数量 単価" {
		t.Errorf("frozen header row = %q, want the sheet's row 1", frozen)
	}
	b.screenshot("frozen-header")
	checkPlaceLabels(b, e)

	// The search-target tree: open the index, uncheck its own files; only
	// the sub-folder's hit is left and the index's box is partly checked.
	e.publish("2024/請求.txt", extract.Place{Name: "本文", Lines: []string{"りんご 請求の行"}})
	b.step("tree",
		chromedp.Evaluate[void](`document.querySelector('#target-list .tnode[data-kind=index] .tw').click()`),
		waitJS(`document.querySelector('#target-list .tnode[data-kind=self] input') !== null`),
		click(`#target-list .tnode[data-kind=self] label`),
		chromedp.Evaluate[void](`document.getElementById('q').value = ''`),
		chromedp.SendKeys(css(`#q`), "りんご"),
		waitJS(`window.__fumibako.done === 'りんご'`),
		waitJS(`document.getElementById('counts').textContent.startsWith('該当')`))
	if got := get(b, "tree search", eval[string](names)); got != "請求.txt" {
		t.Errorf("with the index's own files unchecked: %s, want 請求.txt", got)
	}
	if st := get(b, "index box", eval[string](`(i => i.indeterminate + ':' + i.checked)(document.querySelector('#target-list .tnode[data-kind=index] > .trow input'))`)); st != "true:false" {
		t.Errorf("index box indeterminate:checked = %s", st)
	}
	if st := get(b, "own files box", eval[bool](`document.querySelector('#target-list .tnode[data-kind=self] input').checked`)); st {
		t.Errorf("（このフォルダ直下のファイル） still checked after unchecking it")
	}
	// The exclusion is saved in settings.json (searchExcludes), not in
	// the browser: a page opened afresh, its storage cleared, shows it.
	want := []workspace.SearchExclude{{Path: "営業", Subfolders: false}}
	if got := waitExcludes(t, e, want); !slices.Equal(got, want) {
		t.Errorf("searchExcludes in settings.json = %+v, want %+v", got, want)
	}
	b.screenshot("tree")
	b.step("tree after reload",
		chromedp.Evaluate[void](`localStorage.clear()`),
		chromedp.Navigate(e.url("/")),
		waitJS(`document.body.dataset.ready === '1'`),
		click(`#nav-search`),
		waitJS(`(i => i && i.indeterminate)(document.querySelector('#target-list .tnode[data-kind=index] > .trow input'))`))
	b.step("tree all", click(`#targets-all`), waitJS(`document.querySelector('#target-list .tnode[data-kind=index] > .trow input').checked`))
	if got := waitExcludes(t, e, nil); len(got) != 0 {
		t.Errorf("searchExcludes after ［すべて選択］ = %+v, want none", got)
	}

	// No hits: the previous preview does not stay.
	b.step("no hits",
		chromedp.Evaluate[void](`document.getElementById('q').value = ''`),
		chromedp.SendKeys(css(`#q`), "存在しない語"),
		waitJS(`window.__fumibako.done === '存在しない語'`),
		waitJS(`document.getElementById('counts').textContent.startsWith('見つかりませんでした')`))
	if title := get(b, "preview after no hits", eval[string](`document.getElementById('preview-title').textContent`)); title != "" {
		t.Errorf("preview title after a search without hits = %q", title)
	}

	// The index page: the failure's cause with its count; 無視する leaves
	// the index state green and the failure in its own list.
	status := `document.querySelector('#folders tbody tr[data-name="営業"] .status').textContent`
	b.step("index page",
		click(`#nav-index`),
		waitJS(`document.querySelector('#failures tbody tr') !== null`),
		waitJS(status+` === '⚠ 一部失敗 1 件'`))
	if c := get(b, "causes", textOf(`#failure-causes`)); !strings.Contains(c, "（1 件）") {
		t.Errorf("failure causes = %q", c)
	}
	b.step("ignore",
		click(`#failures tbody tr button.ignore`),
		waitJS(status+` === '✓ 最新'`),
		waitJS(`[...document.querySelectorAll('#ignored tbody tr')].some(r => r.dataset.path.endsWith('x.txt'))`))
	if badge := get(b, "badge", eval[string](`document.getElementById('nav-badge').hidden ? '' : document.getElementById('nav-badge').textContent`)); badge == "失敗" {
		t.Errorf("nav badge still 失敗 after 無視する")
	}
	b.screenshot("ignored")
}

// checkPlaceLabels: the group headers summarise a file's places as
// `<first place> ほか N か所 ・ M 件` and the rows show the labels of
// reference/search.md §6.1 for Word pages (estimated or not) and slides
// (hidden, notes).
func checkPlaceLabels(b *browserT, e *env) {
	e.publish("推定.docx",
		extract.Place{Name: "ページ001（目安）", Lines: []string{"ぶどう柄の本文"}},
		extract.Place{Name: "ページ003（目安）[図形]", Lines: []string{"ぶどう柄の図"}},
		extract.Place{Name: "ページ003（目安）[コメント]", Lines: []string{"ぶどう柄の注"}})
	e.publish("記録.docx", extract.Place{Name: "ページ002", Lines: []string{"ぶどう柄の記録"}})
	e.publish("発表.pptx",
		extract.Place{Name: "スライド002", Lines: []string{"ぶどう柄の新商品"}},
		extract.Place{Name: "スライド002_ノート", Lines: []string{"ぶどう柄を強調"}},
		extract.Place{Name: "スライド003（非表示）", Lines: []string{"非表示のぶどう柄"}})
	b.step("place labels",
		chromedp.Evaluate[void](`document.getElementById('q').value = ''`),
		chromedp.SendKeys(css(`#q`), "ぶどう柄"),
		waitJS(`window.__fumibako.done === 'ぶどう柄'`),
		waitJS(`document.querySelectorAll('#results .group').length === 3`),
		chromedp.Evaluate[void](`document.querySelectorAll('#results .ghead').forEach(h => h.click())`),
		waitJS(`document.querySelectorAll('#results .hrow').length === 7`))
	got := get(b, "labels", eval[[]string](`[...document.querySelectorAll('#results .group')].map(g =>
		g.querySelector('.fname').textContent + ': ' + g.querySelector('.gsum').textContent + ' / ' +
		[...g.querySelectorAll('.hrow')].map(r => r.querySelector('.place').textContent + ' ' + r.querySelector('.kind').textContent).join(', '))`))
	slices.Sort(got)
	want := []string{
		"推定.docx: 1 ページ（目安） ほか 1 か所 ・ 3 件 / 1 ページ（目安） 本文, 3 ページ（目安） 図形, 3 ページ（目安） コメント",
		"発表.pptx: スライド 2 ほか 1 か所 ・ 3 件 / スライド 2 本文, スライド 2 ノート, スライド 3（非表示） 本文",
		"記録.docx: 2 ページ ・ 1 件 / 2 ページ 本文",
	}
	if !slices.Equal(got, want) {
		b.t.Errorf("groups and rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b.screenshot("place-labels")
}

// waitExcludes waits until settings.json holds want as searchExcludes (the
// page saves them in the background) and returns what it holds then.
func waitExcludes(t *testing.T, e *env, want []workspace.SearchExclude) []workspace.SearchExclude {
	t.Helper()
	var got []workspace.SearchExclude
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		st, err := e.ws.LoadSettings()
		if err != nil {
			t.Fatal(err)
		}
		if got = st.SearchExcludes; slices.Equal(got, want) {
			break
		}
	}
	return got
}
