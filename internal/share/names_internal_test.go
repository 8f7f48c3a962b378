package share

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

func TestPathProblem(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"ingest_status.tsv", ""},
		{"summary", ""},
		{"fumibako-index.json", ""},
		{"index/.fumibako-index", ""},
		{"index/部署03/案件012/.fumibako-index.0123456789abcdef0123456789abcdef", ""},
		{"index/a/.fumibako-index.0123456789ABCDEF0123456789ABCDEF", problemName}, // ids are lower case
		{"index/a/.fumibako-index.tmp", problemName},
		{"../x", problemUnsafe},
		{"index/../../x", problemUnsafe},
		{"/etc/passwd", problemUnsafe},
		{"C:/x", problemUnsafe},
		{`index\..\x`, problemUnsafe},
		{"index//.fumibako-index", problemUnsafe},
		{"index/./.fumibako-index", problemUnsafe},
		{"index/CON/.fumibako-index", problemName},
		{"index/con.txt/.fumibako-index", problemName},
		{"index/LPT1/.fumibako-index", problemName},
		{"index/a:b/.fumibako-index", problemName},
		{"index/a?/.fumibako-index", problemName},
		{"index/末尾. /.fumibako-index", problemName},
		{"index/.delete-x/.fumibako-index", problemName},
		{"index/a/CON.tsv", problemName},
		{"index/a/本文.tsv", problemName},
		{"other/.fumibako-index", problemName},
		{"index", problemName},
	} {
		if got := pathProblem(tc.name); got != tc.want {
			t.Errorf("pathProblem(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFreeSpaceReal calls the operating system's query (statfs,
// GetDiskFreeSpaceEx) that the import's check uses.
func TestFreeSpaceReal(t *testing.T) {
	n, err := freeSpace(t.TempDir())
	if err != nil || n == 0 {
		t.Fatalf("freeSpace = %d, %v", n, err)
	}
}

// TestRecoverUnreadablePending: a pending file that does not read is
// moved aside, staging folders go, and nothing is registered.
func TestRecoverUnreadablePending(t *testing.T) {
	ws, err := workspace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(PendingPath(ws), []byte(`{"name": "../x", "stage": "tmp/import-1-2"}`), 0o644)
	os.MkdirAll(filepath.Join(ws.TmpRoot(), "import-1-2", "index"), 0o755)
	os.WriteFile(PendingPath(ws)+".tmp", []byte("{"), 0o644)
	var log []string
	if err := Recover(ws, func(s string) { log = append(log, s) }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(PendingPath(ws)); err == nil {
		t.Errorf("pending file left")
	}
	entries, _ := os.ReadDir(ws.TmpRoot())
	if len(entries) != 0 {
		t.Errorf("tmp holds %v", entries)
	}
	if _, err := os.Stat(PendingPath(ws) + ".tmp"); err == nil {
		t.Errorf("pending .tmp left")
	}
	if len(log) != 2 || !strings.Contains(log[0], "読み取れない") {
		t.Errorf("log = %q", log)
	}
	s, _ := ws.LoadSettings()
	if len(s.IndexSources) != 0 {
		t.Errorf("indexSources = %v", s.IndexSources)
	}
}
