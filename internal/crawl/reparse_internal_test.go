package crawl

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// reparseAttrs fakes what Windows' folder listing says: entries named in
// tags are reparse points with that tag; cloud names a placeholder.
type reparseAttrs struct {
	tags  map[string]Reparse
	cloud string
}

func (reparseAttrs) Hidden(string, fs.FileInfo) bool { return false }
func (a reparseAttrs) CloudOnly(p string, _ fs.FileInfo) bool {
	return filepath.Base(p) == a.cloud
}
func (a reparseAttrs) ReparsePoint(p string, _ fs.FileInfo) (Reparse, bool) {
	rp, ok := a.tags[filepath.Base(p)]
	return rp, ok
}

// modeEntry is a folder entry whose type is what Go 1.23+ reports on
// Windows for a reparse point.
type modeEntry struct {
	fs.DirEntry
	mode fs.FileMode
}

func (e modeEntry) Type() fs.FileMode { return e.mode }
func (e modeEntry) IsDir() bool       { return e.mode.IsDir() }
func (e modeEntry) Info() (fs.FileInfo, error) {
	info, err := e.DirEntry.Info()
	return modeInfo{info, e.mode}, err
}

type modeInfo struct {
	fs.FileInfo
	mode fs.FileMode
}

func (i modeInfo) Mode() fs.FileMode { return i.mode | 0o644 }
func (i modeInfo) IsDir() bool       { return i.mode.IsDir() }

// TestCrawlReparsePoints: cloud files (placeholder or downloaded) and
// deduplicated or otherwise tagged files are crawled, the placeholder marked
// CloudOnly; junctions and symlinks are skipped with the log line; sockets
// are left out. Before the tags were read, every one of them was dropped
// without a row or a message.
func TestCrawlReparsePoints(t *testing.T) {
	root := t.TempDir()
	touch(t, root, "plain.xlsx", "placeholder.xlsx", "downloaded.docx", "dedup.pptx", "wof.txt",
		"sock.txt", "link.xlsx", "junction/inside.txt", "OneDrive 営業/見積.xlsx")
	// Go's modes on Windows: non-link reparse points are irregular (a folder
	// keeps ModeDir); name surrogates lose ModeDir.
	modes := map[string]fs.FileMode{
		"placeholder.xlsx": fs.ModeIrregular, "downloaded.docx": fs.ModeIrregular,
		"dedup.pptx": fs.ModeIrregular, "wof.txt": fs.ModeIrregular, "sock.txt": fs.ModeSocket | fs.ModeIrregular,
		"link.xlsx": fs.ModeSymlink, "junction": fs.ModeIrregular, "OneDrive 営業": fs.ModeDir | fs.ModeIrregular,
	}
	attrs := reparseAttrs{cloud: "placeholder.xlsx", tags: map[string]Reparse{
		"placeholder.xlsx": {Tag: tagCloud},
		"downloaded.docx":  {Tag: 0x9000301A}, // IO_REPARSE_TAG_CLOUD_3
		"dedup.pptx":       {Tag: tagDedup},
		"wof.txt":          {Tag: 0x80000017}, // IO_REPARSE_TAG_WOF
		"sock.txt":         {Tag: tagAFUnix},
		"link.xlsx":        {Tag: tagSymlink},
		"junction":         {Tag: tagMountPoint, Dir: true},
		"OneDrive 営業":      {Tag: 0x9000701A, Dir: true},
	}}
	defer func(old func(string) ([]os.DirEntry, error)) { readDir = old }(readDir)
	readDir = func(dir string) ([]os.DirEntry, error) {
		ents, err := os.ReadDir(dir)
		for i, e := range ents {
			if m, ok := modes[e.Name()]; ok {
				ents[i] = modeEntry{e, m}
			}
		}
		return ents, err
	}
	res, err := Crawl(context.Background(), workspace.Root{Name: "r", Path: root}, Options{Attrs: attrs})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`r\dedup.pptx`, `r\downloaded.docx`, `r\OneDrive 営業\見積.xlsx`, `r\placeholder.xlsx`, `r\plain.xlsx`, `r\wof.txt`}
	if got := rels(res); !reflect.DeepEqual(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	for _, f := range res.Files {
		if f.CloudOnly != strings.HasSuffix(f.RelPath, "placeholder.xlsx") {
			t.Errorf("%s CloudOnly = %v", f.RelPath, f.CloudOnly)
		}
		if f.Size != 1 {
			t.Errorf("%s size = %d, want 1", f.RelPath, f.Size)
		}
	}
	var skipped []string
	for _, s := range res.Skipped {
		if s.Reason != ReasonSymlink {
			t.Errorf("skip %s: %q", s.Path, s.Reason)
		}
		skipped = append(skipped, filepath.Base(s.Path))
	}
	if want := []string{"junction", "link.xlsx"}; !reflect.DeepEqual(skipped, want) {
		t.Errorf("skipped = %q, want %q", skipped, want)
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		mode fs.FileMode
		rp   Reparse
		ok   bool
		want entryKind
	}{
		{0, Reparse{}, false, kindFile},
		{fs.ModeDir, Reparse{}, false, kindDir},
		{fs.ModeSymlink, Reparse{Tag: tagSymlink}, true, kindLink},
		{fs.ModeIrregular, Reparse{}, false, kindOther},
		{fs.ModeNamedPipe, Reparse{}, false, kindOther},
		{fs.ModeIrregular, Reparse{Tag: tagCloud}, true, kindFile},
		{fs.ModeIrregular, Reparse{Tag: 0x9000F01A}, true, kindFile}, // IO_REPARSE_TAG_CLOUD_F
		{fs.ModeIrregular, Reparse{Tag: tagCloud, Dir: true}, true, kindDir},
		{fs.ModeIrregular, Reparse{Tag: tagDedup}, true, kindFile},
		{fs.ModeIrregular, Reparse{Tag: 0xC0000004}, true, kindFile}, // IO_REPARSE_TAG_HSM
		{fs.ModeIrregular, Reparse{Tag: tagMountPoint, Dir: true}, true, kindLink},
		{fs.ModeIrregular, Reparse{Tag: 0xA000001D}, true, kindLink}, // IO_REPARSE_TAG_LX_SYMLINK
		{fs.ModeIrregular, Reparse{Tag: tagAFUnix}, true, kindOther},
		{fs.ModeIrregular, Reparse{Tag: 0x80000025}, true, kindOther}, // IO_REPARSE_TAG_LX_CHR
	} {
		if got := classify(c.mode, c.rp, c.ok); got != c.want {
			t.Errorf("classify(%v, %#x dir=%v, %v) = %d, want %d", c.mode, c.rp.Tag, c.rp.Dir, c.ok, got, c.want)
		}
	}
}
