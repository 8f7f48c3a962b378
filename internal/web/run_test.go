package web_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/web"
	"github.com/fumibako/fumibako/internal/web/indexing"
)

// waitRun polls the state until cond holds (or a minute passes).
func (e *env) waitRun(what string, cond func(indexing.View) bool) indexing.View {
	e.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var st web.StateView
		e.getJSON("/api/state", &st)
		if cond(st.Run) {
			return st.Run
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("waiting for %s: run = %+v", what, st.Run)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pngBytes is a binary file that the text reader refuses.
var pngBytes = []byte{0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48}

func confirming(v indexing.View) bool { return v.Confirm != nil }
func ended(v indexing.View) bool      { return !v.Running && v.End != nil }

func TestRunDeclined(t *testing.T) {
	e := newEnv(t, "")
	e.write("a.txt", []byte("あ"))
	for _, how := range []string{"cancel", "stop"} {
		t.Run(how, func(t *testing.T) {
			if resp, m := e.post("/api/run/start", map[string]any{}); resp.StatusCode != http.StatusOK {
				t.Fatalf("start = %d %v", resp.StatusCode, m)
			}
			v := e.waitRun("the confirmation", confirming)
			if v.Banner != "取り込む内容を確認してください" || len(v.Confirm.Rows) != 1 {
				t.Fatalf("run = %+v", v)
			}
			r := v.Confirm.Rows[0]
			if r.Index != "営業" || r.Kind != "取り込み" || r.Files != 1 || r.Targets != 1 || r.New != 1 {
				t.Errorf("plan row = %+v", r)
			}
			if resp, _ := e.post("/api/run/start", map[string]any{}); resp.StatusCode != http.StatusConflict {
				t.Errorf("second start = %d, want 409", resp.StatusCode)
			}
			if how == "cancel" {
				e.post("/api/run/confirm", map[string]any{"proceed": false})
			} else {
				e.post("/api/run/stop", map[string]any{})
			}
			v = e.waitRun("the end", ended)
			if *v.End != (indexing.EndView{Level: "warn", Text: "インデックス作成を取りやめました"}) {
				t.Errorf("end = %+v", v.End)
			}
		})
	}
	if resp, _ := e.post("/api/run/confirm", map[string]any{"proceed": true}); resp.StatusCode != http.StatusConflict {
		t.Errorf("confirm without a run = %d, want 409", resp.StatusCode)
	}
}

// events reads the event stream until the run has ended and returns the
// RunViews and log lines it saw.
// Each view is also sent on seen (when not nil).
func (e *env) events(started chan<- struct{}, seen chan<- indexing.View) ([]indexing.View, []indexing.LogLine) {
	resp := e.do(http.MethodGet, "/api/events", "", nil)
	var views []indexing.View
	var logs []indexing.LogLine
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	event := ""
	ran := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = line[len("event: "):]
		case strings.HasPrefix(line, "data: ") && event == "state":
			var v indexing.View
			json.Unmarshal([]byte(line[len("data: "):]), &v)
			views = append(views, v)
			if seen != nil {
				select {
				case seen <- v:
				default:
				}
			}
			if started != nil {
				close(started)
				started = nil
			}
			ran = ran || v.Running
			if ran && !v.Running && v.End != nil {
				return views, logs
			}
		case strings.HasPrefix(line, "data: ") && event == "log":
			var ls []indexing.LogLine
			json.Unmarshal([]byte(line[len("data: "):]), &ls)
			logs = append(logs, ls...)
		}
	}
	return views, logs
}

func TestRunIngests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fumibako and runs workers")
	}
	e := newEnv(t, fumibakoBinary(t))
	e.write("見積.txt", []byte("りんご 10 箱\n"))
	e.write("sub/メモ.txt", []byte("みかん\n"))
	e.write("x.txt", pngBytes)

	type seen struct {
		views []indexing.View
		logs  []indexing.LogLine
	}
	ch := make(chan seen, 1)
	started := make(chan struct{})
	stream := make(chan indexing.View, 1000)
	go func() {
		v, l := e.events(started, stream)
		ch <- seen{v, l}
	}()
	<-started
	e.post("/api/run/start", map[string]any{})
	v := e.waitRun("the confirmation", confirming)
	// Answer once the page would have shown it.
	for sv := range stream {
		if sv.Confirm != nil {
			break
		}
	}
	if v.Confirm.Targets != 3 || v.Confirm.Folders != 1 {
		t.Errorf("confirm = %+v", v.Confirm)
	}
	e.post("/api/run/confirm", map[string]any{"proceed": true})
	v = e.waitRun("the end", ended)
	want := indexing.EndView{Level: "fail", Text: "インデックス作成が完了しました（成功 2 件 / 失敗 1 件）",
		Hint: "失敗したファイルと原因は「取り込みに失敗したファイル」の一覧で確認できます。"}
	if *v.End != want {
		t.Errorf("end = %+v, want %+v", *v.End, want)
	}
	var s seen
	select {
	case s = <-ch:
	case <-time.After(30 * time.Second):
		t.Fatal("event stream did not report the end")
	}
	// Snapshots are coalesced (about ten a second), so the short ingest of
	// three small files may show no snapshot of its own; the confirmation
	// (which waited for us) must show, and the log lines, never dropped,
	// tell each file.
	var banners []string
	for _, v := range s.views {
		banners = append(banners, v.Banner)
	}
	if joined := strings.Join(banners, "\n"); !strings.Contains(joined, "取り込む内容を確認してください") {
		t.Errorf("banners:\n%s", joined)
	}
	var logText []string
	for _, l := range s.logs {
		logText = append(logText, l.Text)
	}
	lt := strings.Join(logText, "\n")
	for _, w := range []string{"3 件のファイルを取り込みます。", "[1/3] 営業\\", "[2/3] 営業\\", "[3/3] 営業\\",
		"取り込みに失敗しました: テキストファイルではないため取り込めません。", "インデックス作成が完了しました。（成功: 2 件 / 失敗: 1 件）"} {
		if !strings.Contains(lt, w) {
			t.Errorf("log lines lack %q:\n%s", w, lt)
		}
	}

	var fl struct {
		Count int
		Rows  []web.FailureView
	}
	e.getJSON("/api/failures", &fl)
	if fl.Count != 1 || fl.Rows[0].Path != `営業\x.txt` || fl.Rows[0].Msg != "テキストファイルではないため取り込めません。" {
		t.Errorf("failures = %+v", fl)
	}
	lines := e.search("q=" + url.QueryEscape("りんご"))
	if len(lines) != 2 || lines[0].Path != "見積.txt" {
		t.Errorf("search after the run = %+v", lines)
	}

	// Second run: nothing changed; the failed file is offered for retry.
	e.post("/api/run/start", map[string]any{})
	v = e.waitRun("the second confirmation", confirming)
	if v.Confirm.Targets != 0 || v.Confirm.Failed != 1 {
		t.Errorf("confirm = %+v", v.Confirm)
	}
	e.post("/api/run/confirm", map[string]any{"proceed": true})
	v = e.waitRun("the second end", ended)
	if *v.End != (indexing.EndView{Level: "ok", Text: "取り込みが必要なファイルはありませんでした"}) {
		t.Errorf("end = %+v", *v.End)
	}

	// Third run with the retry box ticked: the file fails again.
	e.post("/api/run/start", map[string]any{})
	e.waitRun("the third confirmation", confirming)
	e.post("/api/run/confirm", map[string]any{"proceed": true, "retryFailed": true})
	v = e.waitRun("the third end", ended)
	if v.End.Text != "インデックス作成が完了しました（成功 0 件 / 失敗 1 件）" {
		t.Errorf("end = %+v", *v.End)
	}
}

// TestRunOnly: a row's ［取り込む］ checks that index and updates it alone; the
// other index is left as it is and not shown as running.
func TestRunOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fumibako and runs workers")
	}
	e := newEnv(t, fumibakoBinary(t))
	e.write("営業のメモ.txt", []byte("りんご\n"))
	other := filepath.Join(filepath.Dir(e.root), "経理")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "請求.txt"), []byte("みかん\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := e.ws.LoadSettings()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddRoot(other, "経理", e.ws.Root, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SetEnabled("経理", false); err != nil {
		t.Fatal(err)
	}
	if err := e.ws.SaveSettings(s); err != nil {
		t.Fatal(err)
	}

	if resp, m := e.post("/api/run/start", map[string]any{"only": "どこにもない"}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown index: %d %v, want 400", resp.StatusCode, m)
	}
	if resp, m := e.post("/api/run/start", map[string]any{"only": "経理"}); resp.StatusCode != http.StatusOK {
		t.Fatalf("start = %d %v", resp.StatusCode, m)
	}
	v := e.waitRun("the confirmation", confirming)
	if len(v.Only) != 1 || v.Only[0] != "経理" || v.Confirm.Targets != 1 {
		t.Errorf("run = %+v, confirm = %+v", v, v.Confirm)
	}
	kinds := map[string]string{}
	for _, r := range v.Confirm.Rows {
		kinds[r.Index] = r.Kind
	}
	if kinds["経理"] != "取り込み" || kinds["営業"] != "対象外" {
		t.Errorf("plan kinds = %v", kinds)
	}
	var st web.StateView
	e.getJSON("/api/state", &st)
	status := map[string]web.FolderView{}
	for _, f := range st.Folders {
		status[f.Name] = f
	}
	if f := status["経理"]; !f.Enabled || f.Status != "取り込み中" {
		t.Errorf("経理 = %+v, want checked and 取り込み中", f)
	}
	if f := status["営業"]; f.Status == "取り込み中" {
		t.Errorf("営業 = %+v, shown as running", f)
	}
	e.post("/api/run/confirm", map[string]any{"proceed": true})
	e.waitRun("the end", ended)
	if lines := e.search("q=" + url.QueryEscape("みかん")); len(lines) != 2 || lines[0].Path != "請求.txt" {
		t.Errorf("経理's file after its ［取り込む］: %+v", lines)
	}
	if lines := e.search("q=" + url.QueryEscape("りんご")); len(lines) != 1 || lines[0].Message != "見つかりませんでした。" {
		t.Errorf("営業's file was ingested by 経理's ［取り込む］: %+v", lines)
	}
}
