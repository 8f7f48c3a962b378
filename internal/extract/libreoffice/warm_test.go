package libreoffice

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
)

// The test binary doubles as a worker that keeps LibreOffice warm: with
// FUMIBAKO_WARM_HELPER set it converts FUMIBAKO_WARM_FILE over and over in
// FUMIBAKO_WARM_SCRATCH and writes its pid to FUMIBAKO_WARM_READY after
// the first conversion.
func TestMain(m *testing.M) {
	if os.Getenv("FUMIBAKO_WARM_HELPER") != "" {
		warmHelper()
		return
	}
	os.Exit(m.Run())
}

func warmHelper() {
	KeepWarm()
	file, scratch := os.Getenv("FUMIBAKO_WARM_FILE"), os.Getenv("FUMIBAKO_WARM_SCRATCH")
	for i := 0; ; i++ {
		if _, err := ReadLegacyWith(context.Background(), file, extract.Options{Scratch: scratch}, nil); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		if i == 0 {
			os.WriteFile(os.Getenv("FUMIBAKO_WARM_READY"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		}
	}
}

// needWarm skips when LibreOffice or a Python with uno is missing.
func needWarm(t *testing.T) string {
	t.Helper()
	soffice := lgNeedSoffice(t)
	if pythonFor(soffice) == "" {
		t.Skip("no Python with the uno module for LibreOffice (Debian: apt-get install python3-uno)")
	}
	return soffice
}

// keepWarm turns the warm converter on for one test.
func keepWarm(t *testing.T) {
	KeepWarm()
	t.Cleanup(CloseWarm)
}

// warmConverter is the running converter of scratch's profile (nil when
// there is none).
func warmConverter(scratch string) *warmProc {
	warm.mu.Lock()
	c := warm.convs[filepath.Join(scratch, Profile)]
	warm.mu.Unlock()
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.p
}

// legacyCorpusFiles are the Excel 5.0/95 and Word 6.0/95 files of the
// shared corpus (none when it is absent).
func legacyCorpusFiles(t *testing.T) []string {
	_, file, _, _ := runtime.Caller(0)
	corpus := filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "corpus")
	var out []string
	for _, p := range []string{"tika/testEXCEL_95.xls", "tika/testEXCEL_5.xls", "tika/testWORD6.doc",
		"calamine/biff5_write.xls", "calamine/biff5-rich-text-string.xls", "calamine/misc_biff5_parsing.xls"} {
		if _, err := os.Stat(filepath.Join(corpus, p)); err == nil {
			out = append(out, filepath.Join(corpus, p))
		}
	}
	if len(out) == 0 {
		t.Logf("corpus not found at %s: generated files only", corpus)
	}
	return out
}

// TestWarmSameAsCold converts files one after another through one warm
// converter, in one scratch folder as a worker does, and compares every
// result with the cold path's.
func TestWarmSameAsCold(t *testing.T) {
	soffice := needWarm(t)
	root := t.TempDir()
	t.Cleanup(func() { checkNoSoffice(t, root) }) // after CloseWarm (cleanups run last first)
	fx := lgFixtures(t, soffice, root)
	files := []string{fx[".xls"].path, fx[".doc"].path, fx[".ppt"].path}
	files = append(files, legacyCorpusFiles(t)...)
	files = append(files, fx[".xls"].path) // the same file again, after others

	ctx := context.Background()
	cold := make([]*extract.Result, len(files))
	coldScratch := filepath.Join(root, "cold")
	for i, f := range files {
		os.MkdirAll(coldScratch, 0o755)
		res, err := ReadLegacyWith(ctx, f, extract.Options{Scratch: coldScratch}, nil)
		if err != nil {
			t.Fatalf("cold %s: %v", f, err)
		}
		cold[i] = res
		emptyScratch(coldScratch)
	}

	keepWarm(t)
	scratch := filepath.Join(root, "warm")
	os.MkdirAll(scratch, 0o755)
	var pid int
	start := time.Now()
	for i, f := range files {
		res, err := ReadLegacyWith(ctx, f, extract.Options{Scratch: scratch}, nil)
		if err != nil {
			t.Fatalf("warm %s: %v", f, err)
		}
		p := warmConverter(scratch)
		if p == nil {
			t.Fatalf("warm %s: no converter running afterwards", f)
		}
		if i == 0 {
			pid = p.office.Process.Pid
			start = time.Now()
		} else if p.office.Process.Pid != pid {
			t.Errorf("warm %s: converted by soffice %d, want the same as the first file's (%d)", f, p.office.Process.Pid, pid)
		}
		if !reflect.DeepEqual(res, cold[i]) {
			t.Errorf("warm %s differs from cold:\nwarm %#v\ncold %#v", filepath.Base(f), res, cold[i])
		}
		emptyScratch(scratch)
	}
	t.Logf("%d files after the first: %.3f s/file warm", len(files)-1, time.Since(start).Seconds()/float64(len(files)-1))
}

// emptyScratch removes what a file left in dir but the profile, as the
// worker does between files.
func emptyScratch(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != Profile {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// TestWarmRestartsAfterCrash kills the converter's LibreOffice between two
// files: the next file is converted by a new one.
func TestWarmRestartsAfterCrash(t *testing.T) {
	soffice := needWarm(t)
	root := t.TempDir()
	t.Cleanup(func() { checkNoSoffice(t, root) }) // after CloseWarm (cleanups run last first)
	fx := lgFixtures(t, soffice, root)
	keepWarm(t)
	scratch := filepath.Join(root, "w")
	os.MkdirAll(scratch, 0o755)
	ctx := context.Background()
	var pids []int
	for i := 0; i < 2; i++ {
		res, err := ReadLegacyWith(ctx, fx[".doc"].path, extract.Options{Scratch: scratch}, nil)
		if err != nil || !strings.Contains(lgAllLines(res), "稟議書") {
			t.Fatalf("conversion %d = %v, %v, want 稟議書", i+1, res, err)
		}
		p := warmConverter(scratch)
		if p == nil {
			t.Fatalf("conversion %d: no converter running", i+1)
		}
		pids = append(pids, p.office.Process.Pid)
		if i == 0 {
			p.office.Process.Kill()
			<-p.officeDone
		}
	}
	if pids[0] == pids[1] {
		t.Errorf("the second file was converted by the killed soffice %d", pids[0])
	}
}

// fakeWarm puts a fake soffice.bin next to the fake soffice and a fake
// UNO Python in place of the real one: the office starts a child and
// waits, appending its pid to $FAKE_OFFICE_PIDS; the client answers
// ready, then per request hangs in a child (pid in $FAKE_PIDFILE), copies
// $FAKE_SRC to $FAKE_OUT, or half writes $FAKE_OUT and exits, as
// FAKE_WARM_MODE says.
func fakeWarm(t *testing.T) string {
	soffice := fakeSoffice(t)
	office := `#!/bin/sh
echo $$ >> "$FAKE_OFFICE_PIDS"
sleep 300 &
wait
`
	python := `#!/bin/sh
echo '{"ready": true}'
while read -r line; do
	case "$FAKE_WARM_MODE" in
	hang) sleep 300 & echo $! > "$FAKE_PIDFILE"; wait ;;
	copy) cp "$FAKE_SRC" "$FAKE_OUT"; echo '{}' ;;
	die) printf 'PK half' > "$FAKE_OUT"; exit 3 ;;
	esac
done
`
	dir := filepath.Dir(soffice)
	for name, s := range map[string]string{"soffice.bin": office, "python": python} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := findPython
	findPython = func(string) string { return filepath.Join(dir, "python") }
	t.Cleanup(func() { findPython = old })
	return soffice
}

// TestWarmDeadline: a conversion that hangs in the warm converter ends
// with ctx's error at the deadline, its whole tree is killed, and the next
// file gets a new converter.
func TestWarmDeadline(t *testing.T) {
	src, err := os.ReadFile(velvetXLS)
	if err != nil {
		t.Skip(err)
	}
	if runtime.GOOS != "linux" {
		t.Skip("checks processes through /proc")
	}
	withSoffice(t, fakeWarm(t))
	keepWarm(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "book.xls")
	os.WriteFile(p, src, 0o644)
	scratch := filepath.Join(dir, "scratch")
	os.MkdirAll(scratch, 0o755)
	pidFile, officePids := filepath.Join(dir, "pid"), filepath.Join(dir, "office-pids")
	t.Setenv("FAKE_PIDFILE", pidFile)
	t.Setenv("FAKE_OFFICE_PIDS", officePids)

	t.Setenv("FAKE_WARM_MODE", "hang")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = ReadLegacyWith(ctx, p, extract.Options{Scratch: scratch}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a hanging warm conversion = %v, want context.DeadlineExceeded", err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the fake client did not start its child: %v", err)
	}
	hung, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	b, _ = os.ReadFile(officePids)
	first, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for _, pid := range []int{hung, first} {
		for i := 0; i < 50 && alive(pid); i++ {
			time.Sleep(100 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("process %d of the hung converter survived the deadline", pid)
		}
	}

	xlsx := filepath.Join(dir, "good.xlsx")
	os.WriteFile(xlsx, lgXLSX(t, "売上", [][]string{{"見積番号", "A-123"}}), 0o644)
	t.Setenv("FAKE_WARM_MODE", "copy")
	t.Setenv("FAKE_SRC", xlsx)
	t.Setenv("FAKE_OUT", filepath.Join(scratch, "lo-out", "source.xlsx"))
	res, err := ReadLegacyWith(context.Background(), p, extract.Options{Scratch: scratch}, nil)
	if err != nil || lgAllLines(res) != "見積番号\tA-123\n" {
		t.Fatalf("the file after the hung one = %v, %v", res, err)
	}
	b, _ = os.ReadFile(officePids)
	if n := len(strings.Fields(string(b))); n != 2 {
		t.Errorf("%d offices started, want 2 (a new one after the deadline)", n)
	}
}

// TestWarmDiesMidFile: a converter that dies during a file (LibreOffice
// crashed) leaves that file to a cold conversion, which starts without
// what the dead one half wrote.
func TestWarmDiesMidFile(t *testing.T) {
	src, err := os.ReadFile(velvetXLS)
	if err != nil {
		t.Skip(err)
	}
	withSoffice(t, fakeWarm(t))
	keepWarm(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "book.xls")
	os.WriteFile(p, src, 0o644)
	xlsx := filepath.Join(dir, "good.xlsx")
	os.WriteFile(xlsx, lgXLSX(t, "売上", [][]string{{"見積番号", "A-123"}}), 0o644)
	t.Setenv("FAKE_OFFICE_PIDS", filepath.Join(dir, "office-pids"))
	t.Setenv("FAKE_SRC", xlsx)
	t.Setenv("FAKE_WARM_MODE", "die")
	for _, tt := range []struct{ cold, msg, lines string }{
		{cold: "copy", lines: "見積番号\tA-123\n"},
		{cold: "none", msg: extract.MsgCorrupt},
	} {
		t.Run("cold="+tt.cold, func(t *testing.T) {
			scratch := t.TempDir()
			t.Setenv("FAKE_OUT", filepath.Join(scratch, "lo-out", "source.xlsx"))
			t.Setenv("FAKE_MODE", tt.cold)
			res, err := ReadLegacyWith(context.Background(), p, extract.Options{Scratch: scratch}, nil)
			if tt.msg != "" {
				var e *extract.Error
				if !errors.As(err, &e) || e.Msg != tt.msg {
					t.Fatalf("ReadLegacyWith = %v, want %q", err, tt.msg)
				}
				return
			}
			if err != nil || lgAllLines(res) != tt.lines {
				t.Fatalf("ReadLegacyWith = %v, %v, want %q", res, err, tt.lines)
			}
		})
	}
}
