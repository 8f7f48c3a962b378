package bodyindex_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// snapshot returns the body index files of dir and their bytes.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), format.ManifestName) {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = string(b)
		}
	}
	return out
}

func TestPublishRoundTrip(t *testing.T) {
	dir := filepath.Join(indextest.TempDir(t), "営業", "2024")
	sub := filepath.Join(dir, "見積")
	os.MkdirAll(sub, 0o755)
	indextest.Stage(t, dir, "A社.xlsx",
		indextest.Place("売上", "", "品名\t数量", "りんご\t10", "", "ＡＢＣ\t\"1行目\u20282行目\""),
		indextest.Place("売上[図形]", "F2\t納期は別途相談"))
	indextest.Stage(t, dir, "報告.docx", indextest.Place("ページ001", "りんごの出荷が増えた"), indextest.Place("ヘッダー・フッター", "社外秘"))
	indextest.Stage(t, dir, "空.txt")
	indextest.Stage(t, sub, "下.txt", indextest.Place("本文", "下のフォルダ"))
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	files, err := format.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]format.FileInfo{
		"A社.xlsx": {Places: 2, Lines: 6, TextBytes: int64(len("\n品名\t数量\nりんご\t10\n\nＡＢＣ\t\"1行目\u20282行目\"\nF2\t納期は別途相談\n"))},
		"報告.docx": {Places: 2, Lines: 2, TextBytes: int64(len("りんごの出荷が増えた\n社外秘\n"))},
		"空.txt":   {},
	}
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("Files = %v, want %v", files, want)
	}
	got, err := format.ReadFile(dir, "A社.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	wantPlaces := []extract.Place{
		indextest.Place("売上", "", "品名\t数量", "りんご\t10", "", "ＡＢＣ\t\"1行目\u20282行目\""),
		indextest.Place("売上[図形]", "F2\t納期は別途相談"),
	}
	if !reflect.DeepEqual(got, wantPlaces) {
		t.Fatalf("ReadFile = %q, want %q", got, wantPlaces)
	}
	for _, n := range []string{"A社.xlsx", "報告.docx", "空.txt"} {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("per-file folder %s survived the publish", n)
		}
	}
	if !content.IsFileFolder(filepath.Join(sub, "下.txt")) {
		t.Errorf("the sub-folder's per-file folder was touched")
	}
	if format.FolderHasIndex(sub) {
		t.Errorf("the sub-folder got an index")
	}
	if !format.FolderHasIndex(dir) || format.NeedsRebuild(dir) {
		t.Errorf("FolderHasIndex/NeedsRebuild wrong after publish")
	}
}

func TestPublishReplaceRemoveIdempotent(t *testing.T) {
	dir := indextest.TempDir(t)
	for i := 0; i < 5; i++ {
		indextest.Stage(t, dir, fmt.Sprintf("f%d.txt", i), indextest.Place("本文", fmt.Sprintf("line of file %d", i)))
	}
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	// Replace f1 (different case: same file), remove f3, add f9.
	indextest.Stage(t, dir, "F1.txt", indextest.Place("本文", "new text of F1", "second"))
	indextest.Stage(t, dir, "f9.txt", indextest.Place("本文", "nine"))
	if err := bodyindex.Publish(dir, []string{"F3.TXT", "gone.txt"}); err != nil {
		t.Fatal(err)
	}
	files, err := format.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := []string{"F1.txt", "f0.txt", "f2.txt", "f4.txt", "f9.txt"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("files = %v, want %v", names, want)
	}
	got, _ := format.ReadFile(dir, "F1.txt")
	if want := []extract.Place{indextest.Place("本文", "new text of F1", "second")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("F1 = %q", got)
	}
	before := snapshot(t, dir)
	// Publishing again with nothing new changes nothing.
	if err := bodyindex.Publish(dir, []string{"F3.TXT"}); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); !reflect.DeepEqual(before, after) {
		t.Fatalf("second publish changed the index")
	}
	// A crash after the commit leaves the per-file folders: publishing them
	// again gives the same bytes.
	indextest.Stage(t, dir, "F1.txt", indextest.Place("本文", "new text of F1", "second"))
	indextest.Stage(t, dir, "f9.txt", indextest.Place("本文", "nine"))
	if err := bodyindex.Publish(dir, []string{"F3.TXT", "gone.txt"}); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); !reflect.DeepEqual(before, after) {
		t.Fatalf("republishing after a crash changed the bytes")
	}
	// Removing everything removes the index files.
	if err := bodyindex.Publish(dir, []string{"F1.txt", "f0.txt", "f2.txt", "f4.txt", "f9.txt"}); err != nil {
		t.Fatal(err)
	}
	if s := snapshot(t, dir); len(s) != 0 || format.FolderHasIndex(dir) {
		t.Fatalf("empty folder kept index files %v", s)
	}
	if files, err := format.Files(dir); err != nil || len(files) != 0 {
		t.Fatalf("Files of a folder without index = %v, %v", files, err)
	}
}

func TestPublishBrokenFileFolder(t *testing.T) {
	dir := indextest.TempDir(t)
	indextest.Stage(t, dir, "ok.txt", indextest.Place("本文", "fine"))
	indextest.Stage(t, dir, "bad.txt", indextest.Place("本文", "will break"))
	os.Remove(filepath.Join(dir, "bad.txt", "doc_body.tsv"))
	err := bodyindex.Publish(dir, nil)
	var lost *bodyindex.LostError
	if !errors.As(err, &lost) || !reflect.DeepEqual(lost.Files, []string{"bad.txt"}) {
		t.Fatalf("Publish = %v, want LostError for bad.txt", err)
	}
	files, _ := format.Files(dir)
	if _, ok := files["ok.txt"]; !ok || len(files) != 1 {
		t.Fatalf("Files = %v", files)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.txt")); !os.IsNotExist(err) {
		t.Fatalf("broken per-file folder kept")
	}
}

func TestRebuildUnknownVersion(t *testing.T) {
	dir := indextest.TempDir(t)
	indextest.Stage(t, dir, "a.txt", indextest.Place("本文", "text"))
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, format.ManifestName)
	data, _ := os.ReadFile(m)
	data[8] = 9 // format version 9
	os.WriteFile(m, data, 0o644)
	_, err := format.Files(dir)
	var rb *format.RebuildError
	if !errors.As(err, &rb) || rb.Version != 9 || !errors.Is(err, format.ErrRebuild) {
		t.Fatalf("Files = %v, want RebuildError version 9", err)
	}
	if !format.NeedsRebuild(dir) {
		t.Fatal("NeedsRebuild = false")
	}
	indextest.Stage(t, dir, "b.txt", indextest.Place("本文", "new"))
	if err := bodyindex.Publish(dir, nil); !errors.As(err, &rb) {
		t.Fatalf("Publish over version 9 = %v, want RebuildError", err)
	}
	err = bodyindex.Rebuild(dir)
	var lost *bodyindex.LostError
	if !errors.As(err, &lost) {
		t.Fatalf("Rebuild = %v, want LostError", err)
	}
	if s := snapshot(t, dir); len(s) != 0 {
		t.Fatalf("Rebuild left %v", s)
	}
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	files, _ := format.Files(dir)
	if _, ok := files["b.txt"]; !ok || len(files) != 1 {
		t.Fatalf("Files after rebuild and publish = %v", files)
	}
	if err := bodyindex.Rebuild(dir); err != nil {
		t.Fatalf("Rebuild of a current index = %v", err)
	}
}

func TestDamagedManifest(t *testing.T) {
	dir := indextest.TempDir(t)
	indextest.Stage(t, dir, "a.txt", indextest.Place("本文", "text"))
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, format.ManifestName)
	data, _ := os.ReadFile(m)
	data[len(data)-1] ^= 0xFF
	os.WriteFile(m, data, 0o644)
	_, err := format.Files(dir)
	var rb *format.RebuildError
	if !errors.As(err, &rb) || !errors.Is(err, format.ErrMalformed) {
		t.Fatalf("Files = %v, want RebuildError with a format cause", err)
	}
}

func TestRebuildDamagedPart(t *testing.T) {
	dir := indextest.TempDir(t)
	indextest.Stage(t, dir, "a.txt", indextest.Place("本文", "text a"))
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	for n := range snapshot(t, dir) {
		if n != format.ManifestName {
			path := filepath.Join(dir, n)
			data, _ := os.ReadFile(path)
			os.Remove(path) // a new inode, as a restore from a backup would make
			copy(data, "XXXXXXXX")
			os.WriteFile(path, data, 0o644)
		}
	}
	if !format.NeedsRebuild(dir) {
		t.Fatal("NeedsRebuild = false with a damaged part")
	}
	err := bodyindex.Rebuild(dir)
	var lost *bodyindex.LostError
	if !errors.As(err, &lost) || !reflect.DeepEqual(lost.Files, []string{"a.txt"}) {
		t.Fatalf("Rebuild = %v, want LostError for a.txt", err)
	}
	if format.NeedsRebuild(dir) || format.FolderHasIndex(dir) {
		t.Fatal("the damaged index is still there")
	}
}

// TestSegmentFor: the segment SegmentFor decodes for each line is the one
// Segments lists for it.
func TestSegmentFor(t *testing.T) {
	dir := indextest.TempDir(t)
	indextest.Stage(t, dir, "A社.xlsx", indextest.Place("売上", "a", "b", "c"), indextest.Place("売上[図形]", "F2\t納期"), indextest.Place("仕入", "x"))
	indextest.Stage(t, dir, "報告.docx", indextest.Place("ページ001", "一", "二"), indextest.Place("ページ002", "三"))
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	f, err := format.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := f.Part(0)
	segs, err := p.Segments()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range segs {
		for li := want.FirstLine; li < want.FirstLine+want.Lines; li++ {
			j, got, err := p.SegmentFor(li)
			if err != nil || j != i || got != want {
				t.Errorf("SegmentFor(%d) = %d, %+v, %v; want %d, %+v", li, j, got, err, i, want)
			}
		}
	}
	if _, _, err := p.SegmentFor(p.Lines()); err == nil {
		t.Errorf("SegmentFor past the last line gave no error")
	}
}

// TestRemoveLeftovers: what killed publishes leave beside a folder's index
// (its temporary manifest, parts no manifest lists) goes without a
// publish, the index stays whole; a folder whose manifest cannot be read
// keeps everything.
func TestRemoveLeftovers(t *testing.T) {
	dir := indextest.TempDir(t)
	indextest.Stage(t, dir, "a.txt", extract.Place{Name: "本文", Lines: []string{"りんごの見積"}})
	if err := bodyindex.Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
	left := []string{format.ManifestName + ".tmp", format.ManifestName + ".0123456789abcdef0123456789abcdef"}
	for _, n := range left {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("cut"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bodyindex.RemoveLeftovers(dir)
	for _, n := range left {
		if _, err := os.Stat(filepath.Join(dir, n)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left: %v", n, err)
		}
	}
	if got, err := format.ReadFile(dir, "a.txt"); err != nil || len(got) != 1 || got[0].Lines[0] != "りんごの見積" {
		t.Errorf("the index after RemoveLeftovers reads %v, %v", got, err)
	}

	// A manifest this build cannot read: nothing is touched.
	broken := indextest.TempDir(t)
	for _, n := range append(left, format.ManifestName) {
		os.WriteFile(filepath.Join(broken, n), []byte("not an index"), 0o644)
	}
	bodyindex.RemoveLeftovers(broken)
	for _, n := range append(left, format.ManifestName) {
		if _, err := os.Stat(filepath.Join(broken, n)); err != nil {
			t.Errorf("%s removed beside an unreadable manifest: %v", n, err)
		}
	}
}
