package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSettingsLockBusy: an edit waits for the settings lock, saves once it
// is free, and gives up with MsgSettingsBusy (writing nothing) when it
// stays held past settingsLockWait.
func TestSettingsLockBusy(t *testing.T) {
	ws, err := Open(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { settingsLockWait = d }(settingsLockWait)
	settingsLockWait = 300 * time.Millisecond
	add := func(name string) error {
		_, err := ws.UpdateSettings(func(s *Settings) error {
			s.Roots = append(s.Roots, Root{Name: name, Path: "/srv/" + name})
			return nil
		})
		return err
	}
	brief, err := ws.lockSettings()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		brief.Release()
	}()
	if err := add("a"); err != nil {
		t.Fatalf("edit after a 100 ms hold: %v", err)
	}
	held, err := ws.lockSettings()
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	err = add("b")
	var busy *SettingsBusyError
	if !errors.As(err, &busy) || err.Error() != MsgSettingsBusy {
		t.Fatalf("edit while held = %v, want MsgSettingsBusy", err)
	}
	if err := ws.SaveSettings(&Settings{}); !errors.As(err, &busy) {
		t.Errorf("SaveSettings while held = %v, want MsgSettingsBusy", err)
	}
	held.Release()
	s, err := ws.LoadSettings()
	if err != nil || len(s.Roots) != 1 || s.Roots[0].Name != "a" {
		t.Errorf("settings = %+v, %v, want a only", s, err)
	}
}

// TestLoadSettingsLooksAgainUnderLock: a reader that catches an
// unreadable settings.json while a writer holds the lock moves nothing
// aside when the writer's file has replaced it by the time the lock is
// free (the probe's reader moved a good file aside and lost every root).
func TestLoadSettingsLooksAgainUnderLock(t *testing.T) {
	ws, err := Open(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	held, err := ws.lockSettings()
	if err != nil {
		t.Fatal(err)
	}
	// What a reader of the old code could see: a file cut mid-write.
	os.WriteFile(ws.SettingsPath(), []byte(`{"targetFolders": [{"na`), 0o644)
	type result struct {
		s   *Settings
		err error
	}
	done := make(chan result)
	go func() {
		s, err := ws.LoadSettings()
		done <- result{s, err}
	}()
	time.Sleep(100 * time.Millisecond)
	if err := WriteFileAtomicUnique(ws.SettingsPath(), []byte(`{"targetFolders": [{"name": "営業", "path": "/srv/営業"}]}`)); err != nil {
		t.Fatal(err)
	}
	held.Release()
	r := <-done
	if r.err != nil || len(r.s.Roots) != 1 || r.s.Roots[0].Name != "営業" {
		t.Fatalf("LoadSettings = %+v, %v, want the writer's file", r.s, r.err)
	}
	if m, _ := filepath.Glob(ws.SettingsPath() + ".broken-*"); len(m) > 0 {
		t.Errorf("a good file was moved aside: %v", m)
	}
}

// TestRemoveStaleTemps: only unique temporary names (<path>.<digits>.tmp)
// are removed; the shared .tmp of other files, moved-aside files and
// look-alikes stay.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	names := []struct {
		name string
		gone bool
	}{
		{"settings.json", false},
		{"settings.json.12345.tmp", true},
		{"settings.json.9.tmp", true},
		{"settings.json.tmp", false},
		{"settings.json..tmp", false},
		{"settings.json.12a.tmp", false},
		{"settings.json.broken-20240101-000000", false},
		{"other.json.123.tmp", false},
	}
	for _, n := range names {
		os.WriteFile(filepath.Join(dir, n.name), nil, 0o644)
	}
	RemoveStaleTemps(p)
	for _, n := range names {
		_, err := os.Stat(filepath.Join(dir, n.name))
		if gone := errors.Is(err, os.ErrNotExist); gone != n.gone {
			t.Errorf("%s: removed %v, want %v", n.name, gone, n.gone)
		}
	}
	// A unique write leaves nothing but the file.
	before := dirNames(t, dir)
	if err := WriteFileAtomicUnique(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if after := dirNames(t, dir); !slices.Equal(after, before) {
		t.Errorf("files after a unique write = %v, want %v", after, before)
	}
	if data, _ := os.ReadFile(p); string(data) != "x" {
		t.Errorf("content %q", data)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
