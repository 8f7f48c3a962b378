package ingestlist_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

func appendRows(t testing.TB, path string, rows ...ingestlist.Row) {
	t.Helper()
	a, err := ingestlist.OpenAppender(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := a.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAppenderLaterRowWins(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest_status.tsv")
	pending := make([]ingestlist.Row, len(seedRows))
	for i, r := range seedRows {
		pending[i] = ingestlist.Row{RelPath: r.RelPath, Updated: r.Updated, Size: r.Size, State: ingestlist.Pending}
	}
	if err := ingestlist.WriteFile(path, seedFolders, pending); err != nil {
		t.Fatal(err)
	}
	// Results arrive in another order, one with a different case.
	upper := seedRows[0]
	upper.RelPath = `営業\2024\見積\a社.XLSX`
	appendRows(t, path, seedRows[2], seedRows[1], upper, seedRows[3])

	l, err := ingestlist.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []ingestlist.Row{upper, seedRows[1], seedRows[2], seedRows[3]}
	if !reflect.DeepEqual(l.Rows, want) {
		t.Fatalf("rows after appending =\n%+v\nwant\n%+v", l.Rows, want)
	}
	if l.DataLines != 8 || len(l.Lines) != 8 || l.Rows[l.Lines[4].Row] != seedRows[2] || l.Lines[4].Index != 4 {
		t.Fatalf("after appending: %d data lines, lines %+v", l.DataLines, l.Lines)
	}
	if r, ok := l.Lookup(`営業\2024\見積\A社.xlsx`); !ok || r != upper {
		t.Fatalf("Lookup = %+v, %v, want %+v", r, ok, upper)
	}
	// Rewriting one row per file gives the seed's list back, with the later
	// row's spelling of the path.
	if err := ingestlist.WriteFile(path, l.Folders, l.Rows); err != nil {
		t.Fatal(err)
	}
	again, _ := ingestlist.ReadFile(path)
	if !reflect.DeepEqual(again.Rows, want) || again.DataLines != 4 {
		t.Fatalf("after the rewrite: %+v", again.Rows)
	}
}

// TestAppenderAfterTornLine: a crash cut the last appended line; the next
// row must not be glued to the fragment.
func TestAppenderAfterTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest_status.tsv")
	if err := ingestlist.WriteFile(path, seedFolders, seedRows[:2]); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("営業\\秘密.xlsx\t2025/01/10 12:34:56\t153"); err != nil {
		t.Fatal(err)
	}
	f.Close()

	l, _ := ingestlist.ReadFile(path)
	if len(l.Rows) != 2 || l.DataLines != 2 {
		t.Fatalf("torn line read: rows %+v, %d data lines", l.Rows, l.DataLines)
	}
	appendRows(t, path, seedRows[2], seedRows[3])
	l, _ = ingestlist.ReadFile(path)
	if !reflect.DeepEqual(l.Rows, seedRows) || l.Ignored != 1 || l.DataLines != 5 {
		t.Fatalf("after appending: rows %+v, ignored %d, data lines %d; want the seed's rows, 1, 5", l.Rows, l.Ignored, l.DataLines)
	}
}

func TestAppenderEmptyAndMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := ingestlist.OpenAppender(filepath.Join(dir, "missing.tsv")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("OpenAppender(missing) error = %v, want ErrNotExist", err)
	}
	path := filepath.Join(dir, "empty.tsv")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	appendRows(t, path, seedRows...)
	l, _ := ingestlist.ReadFile(path)
	if !reflect.DeepEqual(l.Rows, seedRows) {
		t.Fatalf("rows appended to an empty file = %+v", l.Rows)
	}
}

func TestAppenderMisuse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ingest_status.tsv")
	if err := ingestlist.WriteFile(path, nil, nil); err != nil {
		t.Fatal(err)
	}
	a, err := ingestlist.OpenAppender(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append(ingestlist.Row{RelPath: `a\b`, Size: -1}); !errors.Is(err, ingestlist.ErrInvalidRow) {
		t.Fatalf("Append(negative size) error = %v, want ErrInvalidRow", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := a.Append(seedRows[0]); err == nil {
		t.Fatal("Append after Close succeeded")
	}
	if l, _ := ingestlist.ReadFile(path); l.DataLines != 0 {
		t.Fatalf("refused appends wrote %d lines", l.DataLines)
	}
}

const childEnv = "FUMIBAKO_INGESTLIST_APPEND_CHILD"

func childRow(i int) ingestlist.Row {
	r := okRow(fmt.Sprintf(`営業\追記\%05d.xlsx`, i))
	r.Error, r.Version = "", 10000+i
	return r
}

// TestAppenderKill appends in a child process and kills it (SIGKILL on
// Unix) at an arbitrary moment: every row appended before is intact, in
// order, and the list reads without a half row; appending goes on after.
func TestAppenderKill(t *testing.T) {
	if path := os.Getenv(childEnv); path != "" {
		a, err := ingestlist.OpenAppender(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		for i := 0; ; i++ {
			if err := a.Append(childRow(i)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "ingest_status.tsv")
	if err := ingestlist.WriteFile(path, seedFolders, seedRows); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAppenderKill$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the child has appended a few rows (give up after a minute).
	for tries := 0; tries < 6000; tries++ {
		if l, err := ingestlist.ReadFile(path); err == nil && l.DataLines >= len(seedRows)+20 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the child ended on its own")
	}

	l, err := ingestlist.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := len(l.Rows) - len(seedRows)
	if n < 20 || l.Rejected != 0 || l.Ignored != 0 || !reflect.DeepEqual(l.Rows[:len(seedRows)], seedRows) {
		t.Fatalf("after the kill: %d appended rows, %d rejected, %d ignored", n, l.Rejected, l.Ignored)
	}
	for i := 0; i < n; i++ {
		if got := l.Rows[len(seedRows)+i]; got != childRow(i) {
			t.Fatalf("appended row %d = %+v, want %+v", i, got, childRow(i))
		}
	}
	appendRows(t, path, childRow(n))
	l, _ = ingestlist.ReadFile(path)
	if last := l.Rows[len(l.Rows)-1]; last != childRow(n) || len(l.Rows) != len(seedRows)+n+1 {
		t.Fatalf("append after the kill: last row %+v of %d", last, len(l.Rows))
	}
}

// TestAppendAllUnsynced holds a group commit's one write to what one
// append per row writes: the same bytes, after a torn line too, with a row
// that breaks the rules left out and reported and the others written.
func TestAppendAllUnsynced(t *testing.T) {
	bad := ingestlist.Row{RelPath: `a\b`, Size: -1}
	cases := []struct {
		name string
		torn bool
		rows []ingestlist.Row
		bad  int
	}{
		{"rows", false, seedRows[2:], 0},
		{"after a torn line", true, seedRows[2:], 0},
		{"a bad row among them", false, []ingestlist.Row{seedRows[2], bad, seedRows[3]}, 1},
		{"only a bad row", true, []ingestlist.Row{bad}, 1},
		{"none", false, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			one, all := filepath.Join(dir, "one.tsv"), filepath.Join(dir, "all.tsv")
			for _, path := range []string{one, all} {
				if err := ingestlist.WriteFile(path, seedFolders, seedRows[:2]); err != nil {
					t.Fatal(err)
				}
				if c.torn {
					f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						t.Fatal(err)
					}
					f.WriteString("営業\\秘密.xlsx\t2025/01/10")
					f.Close()
				}
			}
			a, err := ingestlist.OpenAppender(one)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range c.rows {
				a.AppendUnsynced(r)
			}
			a.Close()
			a, err = ingestlist.OpenAppender(all)
			if err != nil {
				t.Fatal(err)
			}
			badErrs, err := a.AppendAllUnsynced(c.rows)
			if err != nil {
				t.Fatalf("AppendAllUnsynced: %v", err)
			}
			if len(badErrs) != c.bad {
				t.Fatalf("AppendAllUnsynced reported %d bad rows (%v), want %d", len(badErrs), badErrs, c.bad)
			}
			for _, e := range badErrs {
				if !errors.Is(e, ingestlist.ErrInvalidRow) {
					t.Fatalf("bad row error %v, want ErrInvalidRow", e)
				}
			}
			// The next append starts a line of its own, as after AppendUnsynced.
			if _, err := a.AppendAllUnsynced(seedRows[:1]); err != nil {
				t.Fatal(err)
			}
			a.Close()
			a, _ = ingestlist.OpenAppender(one)
			a.AppendUnsynced(seedRows[0])
			a.Close()
			b1, _ := os.ReadFile(one)
			b2, _ := os.ReadFile(all)
			if string(b1) != string(b2) {
				t.Fatalf("one write per group:\n%q\none write per row:\n%q", b2, b1)
			}
			l, _ := ingestlist.ReadFile(all)
			if r, ok := l.Lookup(seedRows[0].RelPath); !ok || r != seedRows[0] || l.Ignored != 0 && !c.torn {
				t.Fatalf("row read back = %+v, %v (ignored %d), want %+v", r, ok, l.Ignored, seedRows[0])
			}
		})
	}
	var closed ingestlist.Appender
	if _, err := closed.AppendAllUnsynced(seedRows); err == nil {
		t.Fatal("AppendAllUnsynced on a closed appender succeeded")
	}
}
