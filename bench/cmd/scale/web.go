package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fumibako/fumibako/bench/searchcorpus"
	"github.com/fumibako/fumibako/internal/testutil/browser"
)

// WebResult is the web phase: the time from a keystroke in the search box
// of `fumibako serve` to the first hit on screen, in headless chromium,
// typing one character every keyGap (the reference's search-as-you-type
// benchmark, gui.md §8).
type WebResult struct {
	When       string
	Load       string
	Queries    int
	Keystrokes int // characters typed that start a search (from the second of a query on)
	// Timed keystrokes showed a first hit; P50, P90 and Max are theirs.
	Timed         int
	P50, P90, Max time.Duration
	// Missed keystrokes started a search that the next keystroke replaced
	// before it showed a hit or ended: slower than keyGap, and not in the
	// figures.
	Missed int
	Empty  int // searches that ended without a hit (the absent word)
	// TimingsMs are the timed keystrokes in the order typed (ms).
	TimingsMs []float64 `json:",omitempty"`
}

// keyGap is the typing speed of the benchmark.
const keyGap = 150 * time.Millisecond

// minChars is the web page's MIN_CHARS (search.js): shorter text does not
// search as you type.
const minChars = 2

// webQueries is what the web phase types: the words of the query set that
// are not regular expressions (the page searches them as typed), and
// common words of the generated vocabulary, which give hits from the
// second character on. A one-character query never searches as you type.
func webQueries() []string {
	var out []string
	for _, q := range searchcorpus.Queries {
		if s := strings.Join(q.Words, " "); !q.Regex && len([]rune(s)) >= minChars {
			out = append(out, s)
		}
	}
	return append(out, "請求書", "議事録", "担当者", "東京物産", "契約書", "納品書", "打合せ", "佐藤")
}

// runWeb runs the web phase over ws and prints its figures; nil when it
// could not run (the reason is printed).
func runWeb(exe, ws, logPath string) *WebResult {
	path := browser.Path()
	if path == "" {
		fmt.Println("web phase skipped: chromium not found (Debian: apt-get install chromium fonts-ipafont-gothic)")
		return nil
	}
	w, err := webPhase(exe, ws, path, logPath, webQueries())
	if err != nil {
		fmt.Println("web phase failed:", err)
		return nil
	}
	fmt.Printf("\nweb: keystroke to first hit p50 %s, p90 %s, max %s (%d of %d keystrokes timed, %d missed, %d searches without hits, %d queries; load %s)\n",
		msStr(w.P50), msStr(w.P90), msStr(w.Max), w.Timed, w.Keystrokes, w.Missed, w.Empty, w.Queries, w.Load)
	return w
}

// webPhase serves ws, types queries into the page in chromium and returns
// the figures. The server and the browser are gone when it returns.
func webPhase(exe, ws, path, logPath string, queries []string) (w *WebResult, err error) {
	srv, err := startServe(exe, ws, logPath)
	if err != nil {
		return nil, err
	}
	defer func() {
		if e := srv.stop(); e != nil && err == nil {
			err = e
		}
	}()
	ctx, cancel, err := browser.Start(path)
	if err != nil {
		return nil, err
	}
	defer cancel()
	ms, counts, err := typeQueries(ctx, srv.url, queries)
	if err != nil {
		return nil, err
	}
	w = &WebResult{When: time.Now().UTC().Format(time.RFC3339), Load: load(), Queries: len(queries),
		Timed: len(ms), Missed: counts.Missed, Empty: counts.Empty, TimingsMs: ms}
	for _, q := range queries {
		w.Keystrokes += len([]rune(q)) - (minChars - 1)
	}
	if len(ms) == 0 {
		return nil, errors.New("no keystroke reached a first hit")
	}
	d := make([]time.Duration, len(ms))
	for i, x := range ms {
		d[i] = time.Duration(x * float64(time.Millisecond))
	}
	slices.Sort(d)
	w.P50, w.P90, w.Max = d[len(d)/2], d[min(len(d)-1, len(d)*9/10)], d[len(d)-1]
	return w, nil
}

// served is a running `fumibako serve`.
type served struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// startServe starts `fumibako serve` on a free port of 127.0.0.1 and reads
// its address from the line it prints first; its output goes to logPath.
func startServe(exe, ws, logPath string) (*served, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "--workspace", ws, "serve", "--addr", "127.0.0.1:0")
	cmd.Stderr = log
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, err
	}
	s := &served{cmd: cmd, done: make(chan error, 1)}
	urls := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		line, _ := r.ReadString('\n')
		fmt.Fprint(log, line)
		if _, u, ok := strings.Cut(strings.TrimSpace(line), "の画面: "); ok {
			urls <- u
		}
		close(urls)
		io.Copy(log, r)
		s.done <- cmd.Wait()
		log.Close()
	}()
	select {
	case u, ok := <-urls:
		if ok {
			s.url = u
			return s, nil
		}
		err = fmt.Errorf("serve printed no address (see %s)", logPath)
	case <-time.After(5 * time.Minute):
		err = fmt.Errorf("serve printed no address in 5 minutes (see %s)", logPath)
	}
	s.stop()
	return nil, err
}

// stop ends the server as Ctrl-C does, and kills it when it has not ended
// after its own shutdown bound (serve waits 60 s for a run to stop).
func (s *served) stop() error {
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-s.done:
		if err != nil {
			return fmt.Errorf("serve after Ctrl-C: %v", err)
		}
		return nil
	case <-time.After(90 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return errors.New("serve did not end 90 s after Ctrl-C: killed")
	}
}

// searchCounts is what the page's searches came to, beside the timings.
type searchCounts struct{ Missed, Empty int }

// watchSearches wraps the page's F.results.start to keep every search's
// result, so that the searches the next keystroke replaced before a first
// hit are counted (the page's timings hold only those that showed one).
const watchSearches = `(() => {
	const R = F.results, start = R.start;
	window.__bench = [];
	R.start = function (...a) { const r = start.apply(this, a); window.__bench.push(r); return r; };
	window.__fumibako.timings = [];
})()`

// countSearches reads what watchSearches kept.
const countSearches = `({
	Missed: window.__bench.filter((r) => !r.shownFirst && !r.done).length,
	Empty: window.__bench.filter((r) => r.done && r.doneLine && !r.hits.length).length,
})`

// typeQueries opens the search screen at url and types each query one
// character every keyGap, waiting for its last search to end before the
// next; it returns the page's milliseconds from keystroke to first hit.
func typeQueries(ctx context.Context, url string, queries []string) ([]float64, searchCounts, error) {
	var counts searchCounts
	step := func(limit time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
		c, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		return chromedp.Do(c, actions...)
	}
	if err := step(2*time.Minute,
		chromedp.Navigate(url),
		waitJS(`document.body.dataset.ready === '1'`, time.Minute),
		chromedp.Click(chromedp.CSS(`#nav-search`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#q`)),
		chromedp.Evaluate[chromedp.Void](watchSearches)); err != nil {
		return nil, counts, fmt.Errorf("open the search screen: %v", err)
	}
	for _, q := range queries {
		if err := step(time.Minute, chromedp.Evaluate[chromedp.Void](`document.getElementById('q').value = ''`),
			chromedp.Focus(chromedp.CSS(`#q`))); err != nil {
			return nil, counts, fmt.Errorf("clear the box: %v", err)
		}
		for _, r := range q {
			if err := step(time.Minute, chromedp.SendKeys(chromedp.CSS(`#q`), string(r))); err != nil {
				return nil, counts, fmt.Errorf("type %q: %v", q, err)
			}
			time.Sleep(keyGap)
		}
		// The list of the whole query, done (該当 N 件 or 見つかりません
		// でした): the next query starts on a quiet page.
		if err := step(5*time.Minute, waitJS(`window.__fumibako.done === `+strconv.Quote(q), 5*time.Minute)); err != nil {
			return nil, counts, fmt.Errorf("results of %q: %v", q, err)
		}
	}
	c, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	ms, err := chromedp.Run(c, chromedp.Evaluate[[]float64](`window.__fumibako.timings`))
	if err != nil {
		return nil, counts, err
	}
	counts, err = chromedp.Run(c, chromedp.Evaluate[searchCounts](countSearches))
	return ms, counts, err
}

// waitJS waits until a JavaScript expression is truthy.
func waitJS(expr string, limit time.Duration) chromedp.Action[chromedp.Void] {
	poll := chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(limit))
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := poll(ctx, t)
		return chromedp.Void{}, err
	}
}
