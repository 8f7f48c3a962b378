package bodyindex

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/internal/indextest"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// envConvertChild makes TestConvertChild, run alone in a child process
// of TestKillDuringConvert, convert the version 2 folder named by the
// variable (Rebuild) and exit, unless it is killed first. (The package's
// TestMain belongs to the summary's kill test.)
const envConvertChild = "FUMIBAKO_BODYINDEX_CONVERT_CHILD"

func TestConvertChild(t *testing.T) {
	dir := os.Getenv(envConvertChild)
	if dir == "" {
		t.Skip("the child of TestKillDuringConvert")
	}
	fmt.Println("converting")
	if err := Rebuild(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// publishV2 publishes model into dir as a version 2 index.
func publishV2(t testing.TB, dir string, model map[string][]extract.Place) {
	t.Helper()
	publishVersion(t, dir, model, 2)
}

// publishVersion publishes model into dir as an index of version v (2 or
// 3; the folding is this build's).
func publishVersion(t testing.TB, dir string, model map[string][]extract.Place, v uint32) {
	t.Helper()
	for n, places := range model {
		if _, err := content.WriteFolder(filepath.Join(dir, n), places); err != nil {
			t.Fatal(err)
		}
	}
	format.WriteVersion = v
	defer func() { format.WriteVersion = format.Version }()
	if err := Publish(dir, nil); err != nil {
		t.Fatal(err)
	}
}

// copyIndex copies the index files of src into a new folder.
func copyIndex(t testing.TB, src string) string {
	t.Helper()
	dst := indextest.TempDir(t)
	for n, data := range indexBytes(t, src) {
		if err := os.WriteFile(filepath.Join(dst, n), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestRebuildConvertsV2 checks that the encoder's version 2 mode writes the
// bytes of the released version 2 fixture, and that Rebuild converts that
// fixture in place into the bytes the current version publishes from the
// same files: nothing is lost or ingested again.
func TestRebuildConvertsV2(t *testing.T) {
	cur := filepath.Join("format", "testdata", fmt.Sprintf("v%d", format.Version))
	model := map[string][]extract.Place{}
	f, err := format.OpenFolder(cur)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Entries() {
		places, err := f.Places(i)
		if err != nil {
			t.Fatal(err)
		}
		model[f.Entries()[i].Name] = places
	}
	f.Close()
	v2 := indextest.TempDir(t)
	publishV2(t, v2, model)
	if a, b := indexBytes(t, v2), indexBytes(t, filepath.Join("format", "testdata", "v2")); !reflect.DeepEqual(a, b) {
		t.Fatalf("version 2 encoding (%d files) differs from the v2 fixture (%d files)", len(a), len(b))
	}

	dir := copyIndex(t, filepath.Join("format", "testdata", "v2"))
	_, err = format.Files(dir)
	var rb *format.RebuildError
	if !errors.As(err, &rb) || rb.Version != 2 || !format.NeedsRebuild(dir) {
		t.Fatalf("Files(v2) = %v, want RebuildError version 2", err)
	}
	if err := Rebuild(dir); err != nil {
		t.Fatalf("Rebuild(v2) = %v", err)
	}
	if a, b := indexBytes(t, dir), indexBytes(t, cur); !reflect.DeepEqual(a, b) {
		t.Fatalf("converted index %v differs from the v%d fixture %v", keys(a), format.Version, keys(b))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestKillDuringConvert kills a process converting a version 2 or 3
// folder with SIGKILL at moments it does not choose: the folder is always
// read as the old version (to be converted again) or as the converted
// index, never misread, and converting and publishing again gives the
// bytes of an uninterrupted conversion.
func TestKillDuringConvert(t *testing.T) {
	for _, v := range []uint32{2, 3} {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) { killDuringConvert(t, v) })
	}
}

func killDuringConvert(t *testing.T, v uint32) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL of a child process is tested on Linux")
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	model := map[string][]extract.Place{}
	for i := 0; i < 120; i++ {
		model[fmt.Sprintf("報告%03d.txt", i)] = chunkFile(i, 300, "")
	}
	src := indextest.TempDir(t)
	publishVersion(t, src, model, v)
	want := copyIndex(t, src)
	if err := Rebuild(want); err != nil {
		t.Fatal(err)
	}
	for round, wait := range []time.Duration{0, 2 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond, 80 * time.Millisecond, 200 * time.Millisecond} {
		dir := copyIndex(t, src)
		cmd := exec.Command(exe, "-test.run=^TestConvertChild$")
		cmd.Env = append(os.Environ(), envConvertChild+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		bufio.NewReader(out).ReadString('\n') // the child starts converting
		time.Sleep(wait)
		cmd.Process.Kill()
		if err := cmd.Wait(); err != nil && stderr.Len() > 0 {
			t.Fatalf("round %d: child: %s", round, stderr.String())
		}
		files, err := format.Files(dir)
		if err != nil && !errors.As(err, new(*format.RebuildError)) || err == nil && len(files) != len(model) {
			t.Fatalf("round %d: after the kill Files = %d files, %v", round, len(files), err)
		}
		if err := Rebuild(dir); err != nil {
			t.Fatalf("round %d: Rebuild = %v", round, err)
		}
		if err := Publish(dir, nil); err != nil { // deletes what the kill left
			t.Fatalf("round %d: Publish = %v", round, err)
		}
		if a, b := indexBytes(t, dir), indexBytes(t, want); !reflect.DeepEqual(a, b) {
			t.Fatalf("round %d (kill after %v): %d index files, want those of an uninterrupted conversion (%d)", round, wait, len(a), len(b))
		}
	}
}

// TestRebuildRefoldsV3 converts a version 3 fixture written by the build
// before the second folding (issue 34; format/testdata/v3-fold, its lines are
// below) in place: the original text reads back exactly, and the index is
// the one this build publishes from the same files, so its folded text and
// keys are of the second folding (髙橋 is found as 高橋).
func TestRebuildRefoldsV3(t *testing.T) {
	want := map[string][]string{
		"名簿.xlsx": {"髙橋\t山﨑", "渡邊\t齋藤", "霞ヶ関 3カ月"},
		"構成.docx": {"御 見 積 書", "形式 N01", "サーバー構成 ", "葛\U000E0100飾"},
	}
	dir := copyIndex(t, filepath.Join("format", "testdata", "v3-fold"))
	_, err := format.Files(dir)
	var rb *format.RebuildError
	if !errors.As(err, &rb) || rb.Version != 3 {
		t.Fatalf("Files(v3) = %v, want RebuildError version 3", err)
	}
	if err := Rebuild(dir); err != nil {
		t.Fatalf("Rebuild(v3) = %v", err)
	}
	f, err := format.OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	model := map[string][]extract.Place{}
	for i := range f.Entries() {
		places, err := f.Places(i)
		if err != nil {
			t.Fatal(err)
		}
		model[f.Entries()[i].Name] = places
		var lines []string
		for _, p := range places {
			lines = append(lines, p.Lines...)
		}
		if !reflect.DeepEqual(lines, want[f.Entries()[i].Name]) {
			t.Errorf("%s: %q, want %q", f.Entries()[i].Name, lines, want[f.Entries()[i].Name])
		}
	}
	f.Close()
	fresh := indextest.TempDir(t)
	for n, places := range model {
		if _, err := content.WriteFolder(filepath.Join(fresh, n), places); err != nil {
			t.Fatal(err)
		}
	}
	if err := Publish(fresh, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := indexBytes(t, dir), indexBytes(t, fresh); !reflect.DeepEqual(a, b) {
		t.Fatalf("converted index %v differs from a fresh publish %v", keys(a), keys(b))
	}
	for _, w := range []string{"高橋", "見積書", "形式n01", "サーバ構成", "葛飾"} {
		if !strings.Contains(string(indexBytes(t, dir)[partFileOf(t, dir)]), w) {
			t.Errorf("folded text of the converted index lacks %q", w)
		}
	}
}

// partFileOf returns the name of the only part of dir's index.
func partFileOf(t testing.TB, dir string) string {
	t.Helper()
	for n := range indexBytes(t, dir) {
		if strings.HasPrefix(n, format.ManifestName+".") && !strings.HasSuffix(n, format.TmpSuffix) {
			return n
		}
	}
	t.Fatal("no part")
	return ""
}
