//go:build testhooks

package indexer

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/crawl"
)

var crashHits = map[string]int{}
var crashMu sync.Mutex

// crashPoint kills the coordinator at a named point between two steps of a
// write-ordering rule (doc.go), so crash tests can check what survives.
// Only in binaries built with -tags testhooks. FUMIBAKO_TEST_CRASH_AT holds
// "<point>" or "<point>:<n>" (the n-th time the point is reached).
func crashPoint(name string) {
	spec := os.Getenv("FUMIBAKO_TEST_CRASH_AT")
	if spec == "" {
		return
	}
	point, nth, _ := strings.Cut(spec, ":")
	if point != name {
		return
	}
	n := 1
	if nth != "" {
		n, _ = strconv.Atoi(nth)
	}
	crashMu.Lock()
	crashHits[name]++
	hit := crashHits[name] == n
	crashMu.Unlock()
	if hit {
		killSelf()
	}
}

// With FUMIBAKO_TEST_CLOUD=<substring>, files whose path contains it look
// cloud-only to the crawl (issue 9 end-to-end tests).
// FUMIBAKO_TEST_BATCH_ROTATE=<bytes> sets batchRotate, and
// FUMIBAKO_TEST_COMMIT_EVERY=<duration> commitEvery: the kill tests of
// batch files closed and deleted during a run (issue 35).
func init() {
	if sub := os.Getenv("FUMIBAKO_TEST_CLOUD"); sub != "" {
		CrawlAttrs = fakeCloud(sub)
	}
	if n, err := strconv.ParseInt(os.Getenv("FUMIBAKO_TEST_BATCH_ROTATE"), 10, 64); err == nil {
		batchRotate = n
	}
	if d, err := time.ParseDuration(os.Getenv("FUMIBAKO_TEST_COMMIT_EVERY")); err == nil {
		commitEvery = d
	}
}

type fakeCloud string

func (fakeCloud) Hidden(string, fs.FileInfo) bool { return false }
func (fakeCloud) ReparsePoint(string, fs.FileInfo) (crawl.Reparse, bool) {
	return crawl.Reparse{}, false
}
func (c fakeCloud) CloudOnly(path string, _ fs.FileInfo) bool {
	return strings.Contains(path, string(c))
}

// crashPublishing kills the coordinator when it begins to publish a folder
// whose path (relative to the content root) contains the text of
// FUMIBAKO_TEST_CRASH_PUBLISHING: a folder whose publish kills the process
// every time (issue 36). Only in binaries built with -tags testhooks.
func crashPublishing(folder string) {
	if sub := os.Getenv("FUMIBAKO_TEST_CRASH_PUBLISHING"); sub != "" && strings.Contains(folder, sub) {
		killSelf()
	}
}
