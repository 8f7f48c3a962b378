package web_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/xuri/excelize/v2"

	"github.com/fumibako/fumibako/internal/desktop"
)

// TestBrowserOpenMenu (issue 31): a hit's right-click menu offers the
// three open modes (the default first), ［フォルダを開く］ and
// ［パスをコピー］; a mode opens the file at the hit's sheet and cell in
// that mode; ［パスをコピー］ puts the full path on the clipboard (from
// a hit and from a file header, whose tooltip is that path); the
// preview's ［▾］ offers the three modes.
func TestBrowserOpenMenu(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	b := newBrowser(t)
	e := newEnv(t, fumibakoBinary(t))
	x := excelize.NewFile()
	x.SetSheetName("Sheet1", "売上")
	x.SetCellValue("売上", "D5", "りんご 30 箱")
	file := e.write("2024/見積.xlsx", nil)
	if err := x.SaveAs(file); err != nil {
		t.Fatal(err)
	}
	e.index()
	full, _ := filepath.EvalSymlinks(file)
	origin := strings.TrimSuffix(e.url("/"), "/")
	for _, perm := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: perm}, Setting: cdpbrowser.PermissionSettingGranted, Origin: origin}); err != nil {
			t.Fatalf("grant %s: %v", perm, err)
		}
	}
	rightClick := func(sel string) chromedp.Action[void] {
		return eval[void](`(() => { const r = document.querySelector('` + sel + `'); const b = r.getBoundingClientRect();
			r.dispatchEvent(new MouseEvent('contextmenu', {bubbles: true, cancelable: true, clientX: b.left + 20, clientY: b.top + 5})); })()`)
	}
	menuItems := `[...document.querySelectorAll('#open-menu button')].map(b => b.textContent + (b.classList.contains('default') ? '*' : '')).join('|')`
	b.step("search",
		chromedp.Navigate(e.url("/")),
		waitJS(`document.body.dataset.ready === '1'`),
		click(`#nav-search`),
		chromedp.WaitVisible(css(`#q`)),
		chromedp.SendKeys(css(`#q`), "りんご"),
		waitJS(`window.__fumibako.done === 'りんご'`),
		waitJS(`document.querySelectorAll('#results .group').length === 1`),
		click(`#results .ghead`),
		waitJS(`document.querySelector('#results .hrow') !== null`))
	if tip := get(b, "header tooltip", eval[string](`document.querySelector('#results .ghead').title`)); tip != full {
		t.Errorf("file header tooltip = %q, want %q", tip, full)
	}
	b.step("row menu", rightClick(`#results .hrow`), waitJS(`document.querySelector('#open-menu') !== null`))
	if got := get(b, "menu", eval[string](menuItems)); got != "開く*|読み取り専用で開く|コピーを新規に開く|フォルダを開く|パスをコピー" {
		t.Errorf("row menu = %q", got)
	}
	b.step("open read-only", click(`#open-readOnly`), waitJS(`document.querySelector('#statusbar').textContent.includes('元のファイルを開きました')`))
	want := []desktop.Target{{Path: full, Mode: desktop.ModeReadOnly, Place: "売上", Cell: "D5"}}
	if got := e.opened.gotTargets(); !reflect.DeepEqual(got, want) {
		t.Errorf("opened %+v, want %+v", got, want)
	}
	b.step("copy path from a hit", rightClick(`#results .hrow`), click(`#copy-path`),
		waitJS(`document.querySelector('#statusbar').textContent.includes('パスをコピーしました')`))
	if clip := get(b, "clipboard", chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise)); clip != full {
		t.Errorf("clipboard after a hit's パスをコピー = %q, want %q", clip, full)
	}
	b.step("clear clipboard", chromedp.Evaluate[void](`navigator.clipboard.writeText('')`, chromedp.EvalAwaitPromise))
	b.step("copy path from a header", rightClick(`#results .ghead`), waitJS(`document.querySelector('#open-menu') !== null`))
	if got := get(b, "header menu", eval[string](menuItems)); got != "開く*|読み取り専用で開く|コピーを新規に開く|フォルダを開く|パスをコピー" {
		t.Errorf("header menu = %q", got)
	}
	b.step("copy", click(`#copy-path`))
	if clip := get(b, "clipboard", chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise)); clip != full {
		t.Errorf("clipboard after a header's パスをコピー = %q, want %q", clip, full)
	}
	// The header opens the file at its top: no place, the new mode.
	b.step("header new", rightClick(`#results .ghead`), click(`#open-new`), waitJS(`document.querySelector('#statusbar').textContent.includes('元のファイルを開きました')`))
	if got := e.opened.gotTargets(); len(got) != 2 || got[1] != (desktop.Target{Path: full, Mode: desktop.ModeNew}) {
		t.Errorf("header open = %+v", got)
	}
	// The preview: ［開く］ uses the default mode at the hit's place; ［▾］
	// lists the three modes only.
	b.step("preview", click(`#results .hrow`), waitJS(`!document.querySelector('#preview-open').disabled`),
		click(`#preview-open-mode`), waitJS(`document.querySelector('#open-menu') !== null`))
	if got := get(b, "preview menu", eval[string](menuItems)); got != "開く*|読み取り専用で開く|コピーを新規に開く" {
		t.Errorf("preview menu = %q", got)
	}
	// The save of the new default is held back (the disk may keep an
	// fsync waiting that long): the menus list the mode picked first
	// all the same.
	held := make(chan fetch.RequestID, 1)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if p, ok := ev.(*fetch.EventRequestPaused); ok {
			select {
			case held <- p.RequestID:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/open/mode"}}}); err != nil {
		t.Fatal(err)
	}
	b.step("preview new", click(`#open-new`), waitJS(`document.querySelector('#statusbar').textContent.includes('元のファイルを開きました')`))
	if got := e.opened.gotTargets(); len(got) != 3 || got[2] != (desktop.Target{Path: full, Mode: desktop.ModeNew, Place: "売上", Cell: "D5"}) {
		t.Errorf("preview open = %+v", got)
	}
	// The mode picked in ［▾］ is the default now: settings.json, and the
	// menus list it first and bold.
	b.step("default kept", waitJS(`document.querySelector('#open-menu') === null`), rightClick(`#results .hrow`),
		waitJS(`document.querySelector('#open-menu button').textContent === 'コピーを新規に開く'`))
	if got := get(b, "menu", eval[string](menuItems)); got != "コピーを新規に開く*|開く|読み取り専用で開く|フォルダを開く|パスをコピー" {
		t.Errorf("menu after picking new = %q", got)
	}
	select {
	case id := <-held:
		if st, err := e.ws.LoadSettings(); err != nil || st.OpenMode == "new" {
			t.Errorf("settings openMode = %q, %v before the save was let through", st.OpenMode, err)
		}
		if _, err := chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the page did not save the picked mode")
	}
	if _, err := chromedp.Call(b.ctx, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		st, err := e.ws.LoadSettings()
		if err == nil && st.OpenMode == "new" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("settings openMode = %q, %v; want new", st.OpenMode, err)
		}
	}
	b.step("close", eval[void](`document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))`))
	if tip := get(b, "preview tooltip", eval[string](`document.querySelector('#preview-title').title`)); tip != full {
		t.Errorf("preview title tooltip = %q, want %q", tip, full)
	}
}

// TestBrowserKindFilter (issue 31): the search sends exactly the ticked
// kinds (every chip, four, one) and none when no chip is ticked.
func TestBrowserKindFilter(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	b := newBrowser(t)
	e := newEnv(t, "")
	b.step("open the page", chromedp.Navigate(e.url("/")), waitJS(`document.body.dataset.ready === '1'`))
	chips := get(b, "chips", eval[string](`[...document.querySelectorAll('input[name=kind]')].map(b => b.value).join(',')`))
	if chips != "excel,word,powerpoint,pdf,text,image" {
		t.Fatalf("kind chips = %q", chips)
	}
	b.step("record searches", click(`#nav-search`), chromedp.WaitVisible(css(`#q`)),
		eval[void](`window.__searches = []; const f0 = window.fetch; window.fetch = (u, o) => { if (String(u).startsWith('/api/search')) window.__searches.push(String(u)); return f0(u, o); };`))
	for i, tt := range []struct {
		ticked []string
		want   string // kinds parameter; "" = none
	}{
		{[]string{"excel", "word", "powerpoint", "pdf", "text", "image"}, "excel,word,powerpoint,pdf,text,image"},
		{[]string{"excel", "word", "powerpoint", "text"}, "excel,word,powerpoint,text"},
		{[]string{"pdf"}, "pdf"},
		{nil, ""},
	} {
		set := `for (const b of document.querySelectorAll('input[name=kind]')) b.checked = ` + jsList(tt.ticked) + `.includes(b.value);`
		q := "検索語" + strings.Repeat("a", i+1)
		b.step("search "+tt.want, eval[void](set+` document.querySelector("#q").value = "";`), chromedp.SendKeys(css(`#q`), q+kb.Enter),
			waitJS(`window.__searches.some(u => new URLSearchParams(u.split('?')[1]).get('q') === '`+q+`')`))
		got := get(b, "kinds", eval[string](`(() => { const u = window.__searches.filter(u => new URLSearchParams(u.split('?')[1]).get('q') === '`+q+`').pop(); return new URLSearchParams(u.split('?')[1]).get('kinds') || ''; })()`))
		if got != tt.want {
			t.Errorf("ticked %v: kinds = %q, want %q", tt.ticked, got, tt.want)
		}
	}
}

func jsList(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	return `['` + strings.Join(l, `','`) + `']`
}
