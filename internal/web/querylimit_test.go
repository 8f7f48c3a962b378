package web_test

import (
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
)

// TestIssue36QueryLimitWeb reproduces the probe of issue 36 item 5: 200,000
// words "a" in /api/search (the server reached 5.0 GiB and 13.6 s) get the
// query-limit message as the stream's error line, at a cost bounded by the
// request's own size. A repeated word within the limits still searches.
func TestIssue36QueryLimitWeb(t *testing.T) {
	e := newEnv(t, "")
	sampleIndex(e)
	q := url.Values{"q": {strings.Repeat("a ", 200000)}}.Encode()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lines := e.search(q)
	runtime.ReadMemStats(&after)
	want := fmt.Sprintf(search.MsgQueryTooLong, "4,096")
	if len(lines) != 1 || lines[0].Type != "error" || lines[0].Message != want {
		t.Fatalf("/api/search with 200,000 words = %+v, want the error %q", lines, want)
	}
	// The request is 400 KB: parsing it, splitting the words and refusing
	// them allocate a few MB, never the gigabytes of compiling them.
	alloc := after.TotalAlloc - before.TotalAlloc
	if alloc > 64<<20 {
		t.Errorf("refusing 200,000 words allocated %d MiB", alloc>>20)
	}
	t.Logf("200,000 words refused, %.1f MiB allocated", float64(alloc)/(1<<20))

	lines = e.search(url.Values{"q": {"りんご りんご -箱 -箱"}}.Encode())
	hits := 0
	for _, l := range lines {
		if l.Type == "hit" {
			hits++
			if len(l.Matches) != 1 {
				t.Errorf("hit %s %s: matches %v, want one", l.Path, l.Label, l.Matches)
			}
		}
	}
	if hits != 2 { // 報告.docx and 見積.xlsx; メモ.txt has 箱
		t.Errorf("りんご りんご -箱 -箱: %d hits, want 2: %+v", hits, lines)
	}
}
