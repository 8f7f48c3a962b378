package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/web"
	"github.com/fumibako/fumibako/internal/web/indexing"
)

// loadSeconds is how long TestLoad keeps its clients busy:
// FUMIBAKO_LOAD_SECONDS, else 10 (3 with -short).
func loadSeconds(t *testing.T) time.Duration {
	def := 10 * time.Second
	if testing.Short() {
		def = 3 * time.Second
	}
	return testutil.Duration(t, "FUMIBAKO_LOAD_SECONDS", def)
}

// loadClient talks to the server from many goroutines; unlike env's
// helpers it reports failures as errors, never with t.Fatal.
type loadClient struct {
	e      *env
	c      *http.Client
	errs   atomic.Int64
	mu     sync.Mutex
	report []string
}

func (lc *loadClient) fail(format string, args ...any) {
	lc.errs.Add(1)
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if len(lc.report) < 20 {
		lc.report = append(lc.report, fmt.Sprintf(format, args...))
	}
}

// post sends a state-changing request and decodes its JSON answer.
func (lc *loadClient) post(path string, body any) (int, map[string]any, error) {
	data, _ := json.Marshal(body)
	req, err := http.NewRequest(http.MethodPost, lc.e.url(path), bytes.NewReader(data))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(web.TokenHeader, lc.e.srv.Token())
	resp, err := lc.c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	m := map[string]any{}
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m, nil
}

func (lc *loadClient) state() (web.StateView, error) {
	var st web.StateView
	resp, err := lc.c.Get(lc.e.url("/api/state"))
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("GET /api/state: %s", resp.Status)
	}
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// waitRun polls the state until cond holds.
func (lc *loadClient) waitRun(what string, cond func(indexing.View) bool) (indexing.View, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, err := lc.state()
		if err != nil {
			return st.Run, err
		}
		if cond(st.Run) {
			return st.Run, nil
		}
		if time.Now().After(deadline) {
			return st.Run, fmt.Errorf("waiting for %s: run = %+v", what, st.Run)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// indexRun starts a run through the UI's endpoints, confirms it and, when
// stopAfter >= 0, presses stop that long after confirming. It returns how
// the run ended.
func (lc *loadClient) indexRun(stopAfter time.Duration) (*indexing.EndView, error) {
	if code, m, err := lc.post("/api/run/start", map[string]any{}); err != nil || code != http.StatusOK {
		return nil, fmt.Errorf("start: %d %v %v", code, m, err)
	}
	if _, err := lc.waitRun("the confirmation", confirming); err != nil {
		return nil, err
	}
	if code, m, err := lc.post("/api/run/confirm", map[string]any{"proceed": true}); err != nil || code != http.StatusOK {
		return nil, fmt.Errorf("confirm: %d %v %v", code, m, err)
	}
	if stopAfter >= 0 {
		time.Sleep(stopAfter)
		if code, m, err := lc.post("/api/run/stop", map[string]any{}); err != nil || code != http.StatusOK {
			return nil, fmt.Errorf("stop: %d %v %v", code, m, err)
		}
	}
	v, err := lc.waitRun("the end", ended)
	return v.End, err
}

// knownQuery is a search whose answer the load must not change.
type knownQuery struct {
	query       string
	hits, files int
}

// webGoroutines lists the goroutines running code of the web or search
// packages.
func webGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "fumibako/internal/web.") || strings.Contains(g, "fumibako/internal/search.") {
			out = append(out, g)
		}
	}
	return out
}

// TestLoad: 50 clients on loopback for loadSeconds: searches of known
// answers (a third cut off mid-stream), exports, event streams, state
// polls, previews and downloads, while one client starts indexing runs
// through the UI's endpoints and stops every other one. No request may
// fail, every complete search must give its exact count, the files the
// runs add must appear whole (never part of a file) and never disappear
// again, and once the clients are gone no goroutine of the server may be
// left.
func TestLoad(t *testing.T) {
	e := newEnvWith(t, fumibakoBinary(t), true, 2)
	const (
		aFiles, aLines = 30, 100 // 見積: 3,000 hits
		bFiles, bLines = 10, 20  // 請求書: 200 hits
		addLines       = 7       // lines of each file a run adds
	)
	for f := 0; f < aFiles; f++ {
		var b strings.Builder
		for i := 0; i < aLines; i++ {
			fmt.Fprintf(&b, "見積 第%d行 ファイル%d\n", i+1, f)
		}
		e.write(fmt.Sprintf("見積/a%02d.txt", f), []byte(b.String()))
	}
	for f := 0; f < bFiles; f++ {
		var b strings.Builder
		for i := 0; i < bLines; i++ {
			fmt.Fprintf(&b, "請求書 %d 行目\n", i+1)
		}
		e.write(fmt.Sprintf("請求/b%02d.txt", f), []byte(b.String()))
	}
	lc := &loadClient{e: e, c: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}}}
	defer lc.c.CloseIdleConnections()
	if end, err := lc.indexRun(-1); err != nil || end.Level != "ok" {
		t.Fatalf("first run: %+v %v", end, err)
	}
	known := []knownQuery{
		{"q=" + url.QueryEscape("見積"), aFiles*aLines + aFiles, aFiles}, // + the file-name hits (folder 見積)
		{"q=" + url.QueryEscape("請求書"), bFiles * bLines, bFiles},
		{"regex=1&q=" + url.QueryEscape(`請求書\s*1\d?\s*行目`), bFiles * 11, bFiles}, // 1, 10–19 (the folded text has no spaces next to Japanese)
		{"q=" + url.QueryEscape("見積 第7行"), aFiles, aFiles},
	}
	addQuery := "q=" + url.QueryEscape("追加分")
	for _, k := range known {
		if res, err := searchOnce(context.Background(), lc.c, e.ts.URL, k.query, -1); err != nil || res.done == nil || res.done.Hits != k.hits || res.done.Files != k.files {
			t.Fatalf("%s before the load: %+v %v, want %d hits in %d files", k.query, res.done, err, k.hits, k.files)
		}
	}

	dur := loadSeconds(t)
	until := time.Now().Add(dur)
	var wg sync.WaitGroup
	var searches, cut, exports, streams, runs, stopped, cutRuns atomic.Int64
	added := 0 // files the runs were given
	const searchers, streamers, pollers = 40, 5, 4
	for c := 0; c < searchers; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 2))
			lastAdd := 0
			for time.Now().Before(until) {
				if c%10 == 0 && rng.IntN(4) == 0 {
					k := known[rng.IntN(len(known))]
					code, n, err := lc.export(k.query)
					exports.Add(1)
					if err != nil || code != http.StatusOK || n != k.hits {
						lc.fail("export %s: %d, %d hits, %v; want %d", k.query, code, n, err, k.hits)
					}
					continue
				}
				if c%4 == 0 {
					res, err := searchOnce(context.Background(), lc.c, e.ts.URL, addQuery, -1)
					searches.Add(1)
					switch {
					case err != nil || res.status != http.StatusOK || res.done == nil || res.errorLine != nil:
						lc.fail("%s: %+v %v", addQuery, res, err)
					case res.done.Hits%addLines != 0 || res.done.Hits != res.hits || res.done.Hits < lastAdd:
						lc.fail("%s: %d hits (%d streamed) after %d: a file shown in part, or hits gone", addQuery, res.done.Hits, res.hits, lastAdd)
					default:
						lastAdd = res.done.Hits
					}
					continue
				}
				k := known[rng.IntN(len(known))]
				stop := -1
				if rng.IntN(3) == 0 {
					stop = rng.IntN(k.hits)
					cut.Add(1)
				}
				res, err := searchOnce(context.Background(), lc.c, e.ts.URL, k.query, stop)
				searches.Add(1)
				switch {
				case err != nil || res.status != http.StatusOK || res.errorLine != nil:
					lc.fail("%s: %+v %v", k.query, res, err)
				case stop < 0 && (res.done == nil || res.done.Hits != k.hits || res.hits != k.hits || res.done.Files != k.files):
					lc.fail("%s: %d hits streamed, done %+v; want %d hits in %d files", k.query, res.hits, res.done, k.hits, k.files)
				}
			}
		}(c)
	}
	for c := 0; c < streamers; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 3))
			for time.Now().Before(until) {
				streams.Add(1)
				if err := lc.events(time.Duration(rng.IntN(500)) * time.Millisecond); err != nil {
					lc.fail("events: %v", err)
				}
			}
		}(c)
	}
	for c := 0; c < pollers; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for time.Now().Before(until) {
				if _, err := lc.state(); err != nil {
					lc.fail("state: %v", err)
				}
				var ix struct{ Indexes []string }
				if err := lc.getJSON("/api/indexes", &ix); err != nil || len(ix.Indexes) != 1 {
					lc.fail("indexes: %v %v", ix, err)
				}
				if err := lc.previewAndDownload(c % aFiles); err != nil {
					lc.fail("%v", err)
				}
				time.Sleep(30 * time.Millisecond)
			}
		}(c)
	}
	// The run driver: each run gets new files; every other run is stopped
	// a moment after it was confirmed.
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(9, 9))
		for n := 0; time.Now().Before(until); n++ {
			for i := 0; i < 4; i++ {
				var b strings.Builder
				for l := 0; l < addLines; l++ {
					fmt.Fprintf(&b, "追加分 %d-%d の %d 行\n", n, i, l)
				}
				p := filepath.Join(e.root, "追加", fmt.Sprintf("r%03d_%d.txt", n, i))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					lc.fail("%v", err)
					return
				}
				if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
					lc.fail("%v", err)
					return
				}
				added++
			}
			stop := time.Duration(-1)
			if n%2 == 1 {
				stop = time.Duration(rng.IntN(150)) * time.Millisecond
				stopped.Add(1)
			}
			end, err := lc.indexRun(stop)
			runs.Add(1)
			if err == nil && end.Level == "warn" {
				cutRuns.Add(1)
			}
			if err != nil || (end.Level != "ok" && end.Level != "warn") || (stop < 0 && end.Level != "ok") {
				lc.fail("run %d (stop %v): %+v %v", n, stop, end, err)
				return
			}
		}
	}()
	wg.Wait()
	t.Logf("%v: %d searches (%d cut off), %d exports, %d event streams, %d runs (stop pressed in %d, %d ended stopped), %d files added",
		dur, searches.Load(), cut.Load(), exports.Load(), streams.Load(), runs.Load(), stopped.Load(), cutRuns.Load(), added)
	if n := lc.errs.Load(); n > 0 {
		t.Fatalf("%d failed requests, among them:\n%s", n, strings.Join(lc.report, "\n"))
	}

	// The server is alive, the last run takes what stopped runs left, and
	// every added file is found whole.
	if end, err := lc.indexRun(-1); err != nil || end.Level != "ok" {
		t.Fatalf("last run: %+v %v", end, err)
	}
	if res, err := searchOnce(context.Background(), lc.c, e.ts.URL, addQuery, -1); err != nil || res.done == nil || res.done.Hits != added*addLines || res.done.Files != added {
		t.Errorf("%s after the load: %+v %v, want %d hits in %d files", addQuery, res.done, err, added*addLines, added)
	}
	for _, k := range known {
		if res, err := searchOnce(context.Background(), lc.c, e.ts.URL, k.query, -1); err != nil || res.done == nil || res.done.Hits != k.hits {
			t.Errorf("%s after the load: %+v %v, want %d hits", k.query, res.done, err, k.hits)
		}
	}
	// No request is open now, so no handler, flusher or search may run.
	lc.c.CloseIdleConnections()
	deadline := time.Now().Add(10 * time.Second)
	for left := webGoroutines(); len(left) > 0; left = webGoroutines() {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines of the server outlived their requests:\n%s", len(left), strings.Join(left, "\n\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (lc *loadClient) getJSON(path string, v any) error {
	resp, err := lc.c.Get(lc.e.url(path))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// export asks for search_results.txt and returns the hit count it names.
func (lc *loadClient) export(query string) (int, int, error) {
	data, _ := json.Marshal(map[string]string{"query": query, "format": "txt"})
	req, err := http.NewRequest(http.MethodPost, lc.e.url("/api/export"), bytes.NewReader(data))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(web.TokenHeader, lc.e.srv.Token())
	resp, err := lc.c.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	n, err := strconv.Atoi(resp.Header.Get("X-Fumibako-Count"))
	return resp.StatusCode, n, err
}

// events holds the event stream open for d, then drops it; the stream
// must have sent a state first.
func (lc *loadClient) events(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, lc.e.url("/api/events"), nil)
	if err != nil {
		return err
	}
	resp, err := lc.c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /api/events: %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	sawState := false
	for sc.Scan() {
		if sc.Text() == "event: state" {
			sawState = true
		}
	}
	if !sawState && ctx.Err() == nil {
		return fmt.Errorf("event stream ended without a state")
	}
	return nil
}

// previewAndDownload asks for the place around line 50 of 見積\aNN.txt
// and for the file itself; both must be exactly what was written.
func (lc *loadClient) previewAndDownload(f int) error {
	rel := fmt.Sprintf(`営業\見積\a%02d.txt`, f)
	var v web.PreviewView
	q := url.Values{"path": {rel}, "place": {extract.PlaceText}, "row": {"50"}, "before": {"1"}, "after": {"1"}}
	if err := lc.getJSON("/api/preview?"+q.Encode(), &v); err != nil {
		return err
	}
	var got []string
	for _, r := range v.Rows {
		got = append(got, fmt.Sprintf("%d:%s", r.N, strings.Join(r.Cells, "|")))
	}
	want := fmt.Sprintf("49:見積 第49行 ファイル%d,50:見積 第50行 ファイル%d,51:見積 第51行 ファイル%d", f, f, f)
	if strings.Join(got, ",") != want {
		return fmt.Errorf("preview of %s = %v, want %s", rel, got, want)
	}
	resp, err := lc.c.Get(lc.e.url("/api/file?" + url.Values{"path": {rel}}.Encode()))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(filepath.Join(lc.e.root, "見積", fmt.Sprintf("a%02d.txt", f)))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, src) {
		return fmt.Errorf("download of %s: %s, %d bytes, want %d", rel, resp.Status, len(body), len(src))
	}
	return nil
}
