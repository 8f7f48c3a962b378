package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

func TestWriteFileAtomic(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ingest_status.tsv")
	for _, content := range []string{"first", "second, longer", ""} {
		if err := workspace.WriteFileAtomic(p, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(p); string(data) != content {
			t.Fatalf("content = %q, want %q", data, content)
		}
		if _, err := os.Stat(p + ".tmp"); !os.IsNotExist(err) {
			t.Fatalf("temporary file left behind")
		}
	}
	f, err := workspace.CreateAtomic(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("aborted"))
	f.Abort()
	if data, _ := os.ReadFile(p); string(data) != "" {
		t.Fatalf("Abort changed the file: %q", data)
	}
}
