package source_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/workspace"
)

func TestFormatParse(t *testing.T) {
	got := string(source.Format("営業", `\\srv\共有\営業`))
	want := "\ufeff# fumibako: インデックス名<TAB>元のフォルダ（インデックス作成のたびに書き直します）\r\n営業\t\\\\srv\\共有\\営業\r\n"
	if got != want {
		t.Fatalf("Format = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		name, in, index, root string
		ok                    bool
	}{
		{"written", want, "営業", `\\srv\共有\営業`, true},
		{"LF no BOM", "# c\n経理\t/srv/経理\n", "経理", "/srv/経理", true},
		{"comment only", "\ufeff# c\r\n", "", "", false},
		{"no tab", "経理 /srv\r\n", "", "", false},
		{"empty path", "経理\t \r\n", "", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			i, r, ok := source.Parse([]byte(tt.in))
			if i != tt.index || r != tt.root || ok != tt.ok {
				t.Errorf("Parse(%q) = %q, %q, %v, want %q, %q, %v", tt.in, i, r, ok, tt.index, tt.root, tt.ok)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	content := t.TempDir()
	if changed, err := source.Write(content, "営業", "/a"); changed || err != nil {
		t.Fatalf("Write without the index folder = %v, %v", changed, err)
	}
	os.MkdirAll(filepath.Join(content, "営業"), 0o755)
	for i, tt := range []struct {
		root    string
		changed bool
	}{{"/a", true}, {"/a", false}, {"/b", true}} {
		changed, err := source.Write(content, "営業", tt.root)
		data, _ := os.ReadFile(source.FilePath(content, "営業"))
		if err != nil || changed != tt.changed || string(data) != string(source.Format("営業", tt.root)) {
			t.Errorf("step %d: Write(%s) = %v, %v; file %q", i, tt.root, changed, err, data)
		}
	}
	// A per-file folder of a source file named source_folder.txt.
	os.Remove(source.FilePath(content, "営業"))
	os.Mkdir(source.FilePath(content, "営業"), 0o755)
	if changed, err := source.Write(content, "営業", "/a"); changed || err == nil {
		t.Errorf("Write over a folder = %v, %v, want an error", changed, err)
	}
}

func TestCandidatesOrder(t *testing.T) {
	picked := filepath.Join("x", "y", "z")
	got := source.Candidates(picked, `2024\見積\a.xlsx`)
	want := []source.Candidate{
		{filepath.Join(picked, "2024", "見積", "a.xlsx"), picked},
		{filepath.Join(picked, "見積", "a.xlsx"), filepath.Join("x", "y")},
		{filepath.Join(picked, "a.xlsx"), "x"},
	}
	if len(got) != len(want) {
		t.Fatalf("Candidates = %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Candidates[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestRepoint(t *testing.T) {
	base := t.TempDir()
	put := func(rel string) {
		p := filepath.Join(base, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	put("moved/2024/見積/a.xlsx") // the whole tree moved
	put("flat/a.xlsx")          // only the file, picked folder holds it
	put("mid/見積/b.xlsx")        // the year level dropped
	for _, tt := range []struct {
		picked, rest, path, root string
	}{
		{"moved", `2024\見積\a.xlsx`, "moved/2024/見積/a.xlsx", "moved"},
		{"flat", `2024\見積\a.xlsx`, "flat/a.xlsx", ".."}, // picked = root\2024\見積
		{"mid", `2024\見積\b.xlsx`, "mid/見積/b.xlsx", "."},
		{"moved/2024", `2024\見積\a.xlsx`, "moved/2024/見積/a.xlsx", "moved"},
		{"flat", `2024\見積\none.xlsx`, "", ""},
	} {
		t.Run(tt.picked+" "+tt.rest, func(t *testing.T) {
			c, ok := source.Repoint(filepath.Join(base, filepath.FromSlash(tt.picked)), tt.rest)
			if tt.path == "" {
				if ok {
					t.Fatalf("Repoint = %v, want none", c)
				}
				return
			}
			wantPath := filepath.Join(base, filepath.FromSlash(tt.path))
			wantRoot := filepath.Clean(filepath.Join(base, filepath.FromSlash(tt.root)))
			if !ok || c.Path != wantPath || c.Root != wantRoot {
				t.Errorf("Repoint = %v, %v, want %s under %s", c, ok, wantPath, wantRoot)
			}
		})
	}
}

func TestLookupOrder(t *testing.T) {
	content := t.TempDir()
	os.MkdirAll(filepath.Join(content, "営業"), 0o755)
	source.Write(content, "営業", "/from/file")
	for _, tt := range []struct {
		name     string
		settings workspace.Settings
		want     source.Folder
	}{
		{"file only: received, unconfirmed", workspace.Settings{},
			source.Folder{Index: "営業", Path: "/from/file", Received: true}},
		{"indexSources unconfirmed (import)", workspace.Settings{IndexSources: []workspace.IndexSource{{Name: "営業", Path: "/imported"}}},
			source.Folder{Index: "営業", Path: "/imported", Received: true}},
		{"indexSources confirmed", workspace.Settings{IndexSources: []workspace.IndexSource{{Name: "営業", Path: "/picked", Confirmed: true}}},
			source.Folder{Index: "営業", Path: "/picked", Received: true, Confirmed: true}},
		{"crawl root", workspace.Settings{Roots: []workspace.Root{{Name: "営業", Path: "/root"}}},
			source.Folder{Index: "営業", Path: "/root", Confirmed: true}},
		{"crawl root re-pointed", workspace.Settings{Roots: []workspace.Root{{Name: "営業", Path: "/root"}}, IndexSources: []workspace.IndexSource{{Name: "営業", Path: "/moved", Confirmed: true}}},
			source.Folder{Index: "営業", Path: "/moved", Confirmed: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := source.Lookup(content, &tt.settings, "営業")
			if !ok || got != tt.want {
				t.Errorf("Lookup = %+v, %v, want %+v", got, ok, tt.want)
			}
			if got.NeedsConfirm() != (tt.want.Received && !tt.want.Confirmed) {
				t.Errorf("NeedsConfirm = %v", got.NeedsConfirm())
			}
		})
	}
	if _, ok := source.Lookup(content, &workspace.Settings{}, "無い"); ok {
		t.Errorf("Lookup of an unknown index found a folder")
	}
}

func TestReadOnlyCopy(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.xlsm")
	os.WriteFile(src, []byte("macro book"), 0o644)
	cp, err := source.ReadOnlyCopy(filepath.Join(dir, "ro"), src)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cp)
	st, _ := os.Stat(cp)
	if string(data) != "macro book" || st.Mode().Perm()&0o222 != 0 || filepath.Base(cp) != "a.xlsm" {
		t.Errorf("copy %s: %q, mode %v", cp, data, st.Mode())
	}
	// Root writes to any file on Linux, and Wine run as root maps the
	// read-only attribute to file modes alone: the refusal is shown by a
	// user on Linux and by real Windows (where the attribute is checked).
	t.Cleanup(func() { os.Chmod(cp, 0o644) }) // Windows deletes no read-only file
	if f, err := os.OpenFile(cp, os.O_WRONLY, 0); err == nil {
		f.Close()
		if runtime.GOOS != "windows" && os.Getuid() != 0 {
			t.Errorf("read-only copy opened for writing")
		}
	}
	for _, tt := range []struct {
		name string
		want bool
	}{{"a.XLSM", true}, {"a.xls", true}, {"a.doc", true}, {"a.pptm", true}, {"a.xlsx", false}, {"a.docx", false}, {"a.pdf", false}} {
		if got := source.MacroCapable(tt.name); got != tt.want {
			t.Errorf("MacroCapable(%s) = %v", tt.name, got)
		}
	}
}

// TestUnreachableFolder: opening a hit probes its index's folder only when
// it is a network folder ready to open (a local one is Resolve's to tell,
// and so is a received one still to be confirmed), and names it when the
// probe gets no answer in time.
func TestUnreachableFolder(t *testing.T) {
	unc := `\\srv\共有\営業`
	for _, tt := range []struct {
		name     string
		s        *workspace.Settings
		rel      string
		answered bool
		want     string
		probed   bool
	}{
		{"network, no answer", &workspace.Settings{Roots: []workspace.Root{{Name: "営業", Path: unc}}}, `営業\a.txt`, false, unc, true},
		{"network, answers", &workspace.Settings{Roots: []workspace.Root{{Name: "営業", Path: unc}}}, `営業\a.txt`, true, "", true},
		{"local", &workspace.Settings{Roots: []workspace.Root{{Name: "営業", Path: t.TempDir()}}}, `営業\a.txt`, false, "", false},
		{"received, unconfirmed", &workspace.Settings{IndexSources: []workspace.IndexSource{{Name: "営業", Path: unc}}}, `営業\a.txt`, false, "", false},
		{"received, confirmed", &workspace.Settings{IndexSources: []workspace.IndexSource{{Name: "営業", Path: unc, Confirmed: true}}}, `営業\a.txt`, false, unc, true},
		{"bad path", &workspace.Settings{Roots: []workspace.Root{{Name: "営業", Path: unc}}}, `営業\..\x`, false, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			probed := false
			probe := func(path string, wait time.Duration) (bool, bool) {
				probed = true
				if path != unc || wait != source.OpenWait {
					t.Errorf("probed %q for %v", path, wait)
				}
				return tt.answered, tt.answered
			}
			got := source.UnreachableFolder(t.TempDir(), tt.s, tt.rel, source.OpenWait, probe)
			if got != tt.want || probed != tt.probed {
				t.Errorf("UnreachableFolder = %q (probed %v), want %q (probed %v)", got, probed, tt.want, tt.probed)
			}
		})
	}
	dir := t.TempDir()
	if ok, answered := new(source.Prober).Reached(dir, time.Second); !ok || !answered {
		t.Errorf("Reached of a folder = %v, %v", ok, answered)
	}
	if ok, answered := new(source.Prober).Reached(filepath.Join(dir, "無い"), time.Second); ok || !answered {
		t.Errorf("Reached of a missing folder = %v, %v", ok, answered)
	}
}
