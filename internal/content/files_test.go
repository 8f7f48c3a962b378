package content_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

func TestWriteReadSwap(t *testing.T) {
	root := t.TempDir()
	staged := filepath.Join(root, "stage", "A社.xlsx")
	places := []extract.Place{
		{Name: "売上", Lines: []string{"a\tb", "", "c", "", ""}},
		{Name: "空", Lines: []string{"", ""}},
		{Name: "売上[図形]", Lines: []string{"F2\t納期"}},
		{Name: "CON", Lines: []string{"デバイス名のシート"}},
	}
	n, err := content.WriteFolder(staged, places)
	if err != nil || n != 3 {
		t.Fatalf("WriteFolder = %d, %v, want 3", n, err)
	}
	if data, err := os.ReadFile(filepath.Join(staged, "%43ON.tsv")); err != nil || string(data) != "\xef\xbb\xbfデバイス名のシート\r\n" {
		t.Fatalf("%%43ON.tsv (sheet CON) = %q, %v", data, err)
	}
	data, _ := os.ReadFile(filepath.Join(staged, "売上.tsv"))
	if want := "\xef\xbb\xbfa\tb\r\n\r\nc\r\n"; string(data) != want {
		t.Fatalf("売上.tsv = %q, want %q", data, want)
	}
	final := filepath.Join(root, "content", "営業", "A社.xlsx")
	os.MkdirAll(final, 0o755)
	os.WriteFile(filepath.Join(final, "old.tsv"), []byte("x"), 0o644)
	if err := content.Swap(staged, final); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(final, "old.tsv")); !os.IsNotExist(err) {
		t.Fatalf("old TSV survived the swap")
	}
	got, err := content.ReadFolder(final)
	if err != nil {
		t.Fatal(err)
	}
	want := []extract.Place{
		{Name: "売上", Lines: []string{"a\tb", "", "c"}},
		{Name: "売上[図形]", Lines: []string{"F2\t納期"}},
		{Name: "CON", Lines: []string{"デバイス名のシート"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadFolder = %q, want %q", got, want)
	}
	if c, ok := content.CountTSV(final); c != 3 || !ok {
		t.Fatalf("CountTSV = %d, %v", c, ok)
	}
	ff, err := content.FindFileFolders(filepath.Join(root, "content"))
	if err != nil || len(ff) != 1 || ff[0] != final {
		t.Fatalf("FindFileFolders = %v, %v", ff, err)
	}
	os.MkdirAll(filepath.Join(root, "content", "営業", ".old-x-1-0"), 0o755)
	deferred := filepath.Join(root, "content", "営業", content.DeferredPrefix+".fumibako-index.1")
	os.WriteFile(deferred, []byte("part"), 0o644)
	if n, err := content.RemoveLeftovers(filepath.Join(root, "content")); n != 1 || err != nil {
		t.Fatalf("RemoveLeftovers = %d, %v", n, err)
	}
	if _, err := os.Stat(deferred); !os.IsNotExist(err) {
		t.Fatalf("deferred file survived RemoveLeftovers: %v", err)
	}
}

func TestPaths(t *testing.T) {
	if got := content.FolderOf(`営業\2024\A.xlsx`); got != `営業\2024` {
		t.Errorf("FolderOf = %q", got)
	}
	if got := content.BaseOf(`営業\2024\A.xlsx`); got != `A.xlsx` {
		t.Errorf("BaseOf = %q", got)
	}
	root := t.TempDir()
	d := content.Dir(root, `営業\2024`)
	if r, ok := content.RelOf(root, d); !ok || r != `営業\2024` {
		t.Errorf("RelOf = %q, %v", r, ok)
	}
}

// TestSwapCases: the swap's first try (one rename, issue 35) and the
// fallback give the same result whatever is at final.
func TestSwapCases(t *testing.T) {
	cases := []struct {
		name  string
		setup func(final string)
	}{
		{"new in existing folder", func(final string) { os.MkdirAll(filepath.Dir(final), 0o755) }},
		{"new, folder missing", func(string) {}},
		{"empty folder there", func(final string) { os.MkdirAll(final, 0o755) }},
		{"folder with files there", func(final string) {
			os.MkdirAll(final, 0o755)
			os.WriteFile(filepath.Join(final, "old.tsv"), []byte("x"), 0o644)
		}},
		{"a file there", func(final string) {
			os.MkdirAll(filepath.Dir(final), 0o755)
			os.WriteFile(final, []byte("source_folder.txt"), 0o644)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			staged := filepath.Join(root, "stage", "1")
			if _, err := content.WriteFolder(staged, []extract.Place{{Name: extract.PlaceText, Lines: []string{"新しい"}}}); err != nil {
				t.Fatal(err)
			}
			final := filepath.Join(root, "content", "営業", "2024", "a.txt")
			c.setup(final)
			if err := content.SwapUnsynced(staged, final); err != nil {
				t.Fatalf("SwapUnsynced: %v", err)
			}
			got, err := content.ReadFolder(final)
			if want := []extract.Place{{Name: extract.PlaceText, Lines: []string{"新しい"}}}; err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("ReadFolder = %q, %v, want %q", got, err, want)
			}
			if names, _ := os.ReadDir(final); len(names) != 2 {
				t.Fatalf("final holds %d names, want .places and the TSV", len(names))
			}
			if _, err := os.Lstat(staged); !os.IsNotExist(err) {
				t.Fatalf("stage still there: %v", err)
			}
			if n, err := content.RemoveLeftovers(root); err != nil || strings.Contains(c.name, "new") && n != 0 {
				t.Fatalf("RemoveLeftovers = %d, %v", n, err)
			}
		})
	}
}
