package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
)

// bulkIndex publishes files×lines lines that all hold word, so that a
// search for it streams hits long enough to be cut off mid-stream.
func bulkIndex(e *env, dir, word string, files, lines int) {
	e.t.Helper()
	for f := 0; f < files; f++ {
		ls := make([]string, lines)
		for i := range ls {
			ls[i] = fmt.Sprintf("%s の %d 行目（ファイル %d）", word, i+1, f)
		}
		e.publish(fmt.Sprintf("%s/%03d.txt", dir, f), extract.Place{Name: "本文", Lines: ls})
	}
}

// streamResult is what one search request saw.
type streamResult struct {
	status    int
	hits      int
	done      *streamLine
	errorLine *streamLine
}

// searchOnce streams one search; it stops reading after stopAfter hits
// (< 0: read to the end) and then drops the connection by cancelling
// the request, as a browser does when the user types on.
func searchOnce(ctx context.Context, client *http.Client, base, query string, stopAfter int) (streamResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/search?"+query, nil)
	if err != nil {
		return streamResult{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return streamResult{}, err
	}
	defer resp.Body.Close()
	res := streamResult{status: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, resp.Body)
		return res, nil
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l streamLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return res, fmt.Errorf("line %q: %v", sc.Text(), err)
		}
		switch l.Type {
		case "hit":
			res.hits++
			if stopAfter >= 0 && res.hits >= stopAfter {
				cancel()
				return res, nil
			}
		case "done":
			res.done = &l
		case "error":
			res.errorLine = &l
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return res, err
	}
	return res, nil
}

// TestSearchCancelStorm: many clients search at once and most of them go
// away mid-stream. Every handler must be done with the response before it
// returns; a flush after that crashed the whole process (a nil-pointer
// panic in bufio.(*Writer).Flush from the search stream's ticker).
func TestSearchCancelStorm(t *testing.T) {
	e := newEnv(t, "")
	const files, lines = 20, 300
	bulkIndex(e, "大量", "見積", files, lines)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	q := "q=" + url.QueryEscape("見積") + "&max=-1"
	const clients = 48
	until := time.Now().Add(3 * time.Second)
	var wg sync.WaitGroup
	var failed atomic.Int32
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			for i := 0; time.Now().Before(until) && failed.Load() == 0; i++ {
				stop := rng.IntN(500) // mostly cut off mid-stream
				if i%10 == 0 {
					stop = -1
				}
				res, err := searchOnce(context.Background(), client, e.ts.URL, q, stop)
				if err != nil {
					t.Errorf("client %d: %v", c, err)
					failed.Add(1)
					return
				}
				if res.status != http.StatusOK || res.errorLine != nil {
					t.Errorf("client %d: status %d, error %+v", c, res.status, res.errorLine)
					failed.Add(1)
					return
				}
				if stop < 0 && (res.done == nil || res.done.Hits != files*lines || res.hits != files*lines) {
					t.Errorf("client %d: full search saw %d hits, done %+v; want %d", c, res.hits, res.done, files*lines)
					failed.Add(1)
					return
				}
			}
		}(c)
	}
	wg.Wait()
	// The server is still there and answers.
	if lines := e.search("q=" + url.QueryEscape("見積") + "&max=1"); len(lines) != 2 || lines[1].Type != "done" {
		t.Errorf("after the storm: %+v", lines)
	}
}
