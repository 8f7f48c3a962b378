package search_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestIssue31FullPath: every hit carries its file's full path, from the
// index's source folder as source.Lookup finds it (source_folder.txt, the
// crawl root, indexSources), in the OS's own form; a drive or UNC root of
// a received index keeps `\` on other systems too. In the Wine lane
// (tools/winelane.sh) the Windows forms go through filepath.Join.
func TestIssue31FullPath(t *testing.T) {
	root, _ := buildCorpus(t, knownCorpus)
	local := filepath.Join(t.TempDir(), "共有", "営業")
	for _, tt := range []struct {
		name     string
		setup    func(s *workspace.Settings)
		file     string // source_folder.txt's root, "" for none
		want     string // FullPath of 営業\2024\発表.pptx
		wantRoot string
	}{
		{"crawl root", func(s *workspace.Settings) { s.Roots = []workspace.Root{{Name: "営業", Path: local}} }, "",
			filepath.Join(local, "2024", "発表.pptx"), local},
		{"drive letter in source_folder.txt", func(*workspace.Settings) {}, `C:\共有\営業`,
			`C:\共有\営業\2024\発表.pptx`, ""},
		{"UNC in indexSources overrides the file", func(s *workspace.Settings) {
			s.SetSource("営業", `\\fs01\共有\営業\`)
		}, `C:\古い\営業`, `\\fs01\共有\営業\2024\発表.pptx`, ""},
		{"unknown folder", func(*workspace.Settings) {}, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(source.FilePath(root, "営業"))
			if tt.file != "" {
				if err := os.WriteFile(source.FilePath(root, "営業"), source.Format("営業", tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := &workspace.Settings{}
			tt.setup(s)
			ix := search.Indexes(root, s)
			hits, _, err := runQuery(t, root, ix, []string{"発表"}, search.Options{})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, h := range hits {
				if h.RelPath != `2024\発表.pptx` {
					continue
				}
				found = true
				want := tt.want
				if runtime.GOOS == "windows" && want != "" {
					want = filepath.Clean(want)
				}
				if h.FullPath != want {
					t.Errorf("FullPath of %s = %q, want %q", h.Path(), h.FullPath, want)
				}
			}
			if !found {
				t.Fatalf("no hit in 2024\\発表.pptx: %v", hits)
			}
		})
	}
}

// TestIssue31SourcePath: the join itself, per form of root.
func TestIssue31SourcePath(t *testing.T) {
	sep := string(filepath.Separator)
	for _, tt := range []struct{ root, rel, want string }{
		{"", `a\b.xlsx`, ""},
		{`C:\共有\営業`, `2024\見積.xlsx`, `C:\共有\営業\2024\見積.xlsx`},
		{`C:\`, `見積.xlsx`, `C:\見積.xlsx`},
		{`\\fs01\share\営業`, `第1回\議事録.docx`, `\\fs01\share\営業\第1回\議事録.docx`},
		{"/srv/営業", `2024\見積.xlsx`, "/srv/営業" + sep + "2024" + sep + "見積.xlsx"},
	} {
		want := tt.want
		if runtime.GOOS == "windows" {
			want = filepath.FromSlash(want)
		}
		if got := search.SourcePath(tt.root, tt.rel); got != want {
			t.Errorf("SourcePath(%q, %q) = %q, want %q", tt.root, tt.rel, got, want)
		}
	}
}
