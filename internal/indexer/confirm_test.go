package indexer

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/crawl"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// nopBody records the folders published; Publish runs on the publishing
// goroutines, several at once.
type nopBody struct {
	mu        sync.Mutex
	published []string
}

func (b *nopBody) Publish(dir string, removed []string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.published = append(b.published, dir)
	return nil
}
func (b *nopBody) Files(string) (map[string]int, error) { return map[string]int{}, nil }
func (b *nopBody) Rebuild(string) error                 { return nil }

type cloudAttrs string

func (cloudAttrs) Hidden(string, fs.FileInfo) bool { return false }
func (cloudAttrs) ReparsePoint(string, fs.FileInfo) (crawl.Reparse, bool) {
	return crawl.Reparse{}, false
}
func (c cloudAttrs) CloudOnly(p string, _ fs.FileInfo) bool {
	return strings.Contains(p, string(c))
}

// TestConfirmationCancelled: declining the plan keeps the previous rows of
// targets, records no row for new files, keeps the rows of cloud-only
// 未取り込み files (seed), and leaves the journal alone.
func TestConfirmationCancelled(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "src")
	os.MkdirAll(root, 0o755)
	for _, n := range []string{"changed.txt", "new.txt", "pending-cloud.txt", "same.txt"} {
		os.WriteFile(filepath.Join(root, n), []byte("x"), 0o644)
	}
	ws, err := workspace.Open(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	mt := time.Now().Add(-time.Hour).Truncate(time.Second)
	for _, n := range []string{"changed.txt", "pending-cloud.txt", "same.txt"} {
		os.Chtimes(filepath.Join(root, n), mt, mt)
	}
	stamp := ingestlist.FormatFileTime(mt)
	prev := []ingestlist.Row{
		{RelPath: `src\changed.txt`, Updated: stamp, Size: 99, State: ingestlist.Done, TSVCount: 0, HasTSVCount: true, IngestedAt: stamp, Version: 1},
		{RelPath: `src\pending-cloud.txt`, Updated: stamp, Size: 1, State: ingestlist.Pending},
		{RelPath: `src\same.txt`, Updated: stamp, Size: 1, State: ingestlist.Done, TSVCount: 0, HasTSVCount: true, IngestedAt: stamp, Version: 1},
	}
	folders := []ingestlist.Folder{{Path: root, Name: "src"}}
	if err := ingestlist.WriteFile(ws.IngestList(), folders, prev); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ws.Journal(), []byte("journal of the last run"), 0o644)
	CrawlAttrs = cloudAttrs("-cloud")
	defer func() { CrawlAttrs = nil }()
	var asked []PlanRow
	sum, err := Run(Options{
		Workspace: ws,
		Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
		Body:      &nopBody{},
		Confirm: func(p []PlanRow) Answer {
			asked = p
			return Answer{Proceed: false}
		},
	})
	if err != nil || !sum.Cancelled || !sum.Stopped {
		t.Fatalf("Run = %+v, %v, want cancelled", sum, err)
	}
	if len(asked) != 1 || asked[0].Targets != 2 || asked[0].New != 1 || asked[0].Updated != 1 {
		t.Errorf("plan asked = %+v", asked)
	}
	l, err := ingestlist.ReadFile(ws.IngestList())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Rows) != len(prev) {
		t.Fatalf("rows after cancel = %+v", l.Rows)
	}
	for _, want := range prev {
		if got, ok := l.Lookup(want.RelPath); !ok || got != want {
			t.Errorf("row %s = %+v, want %+v", want.RelPath, got, want)
		}
	}
	if data, _ := os.ReadFile(ws.Journal()); string(data) != "journal of the last run" {
		t.Errorf("journal replaced after a cancel: %q", data)
	}
}

// TestIssue32ConfirmationTimedOut: a confirmation nobody answered logs its
// own line (reference/indexing.md §5.3 step 15), not the user's cancel.
func TestIssue32ConfirmationTimedOut(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  Answer
		want    string
		notWant string
	}{
		{"declined", Answer{}, msgDeclined, msgConfirmTimedOut},
		{"timed out", Answer{TimedOut: true}, msgConfirmTimedOut, msgDeclined},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "src")
			os.MkdirAll(root, 0o755)
			os.WriteFile(filepath.Join(root, "a.txt"), []byte("x"), 0o644)
			ws, err := workspace.Open(filepath.Join(base, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			sum, err := Run(Options{
				Workspace: ws,
				Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
				Body:      &nopBody{},
				Confirm:   func([]PlanRow) Answer { return tc.answer },
				Observe: func(ev Event) {
					if ev.Line != "" {
						lines = append(lines, ev.Line)
					}
				},
			})
			if err != nil || !sum.Cancelled {
				t.Fatalf("Run = %+v, %v, want cancelled", sum, err)
			}
			log := strings.Join(lines, "\n")
			if !strings.Contains(log, tc.want) || strings.Contains(log, tc.notWant) {
				t.Errorf("log lacks %q or has %q:\n%s", tc.want, tc.notWant, log)
			}
		})
	}
}
