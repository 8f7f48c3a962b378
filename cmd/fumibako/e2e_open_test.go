package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenMode (issue 31): fumibako open passes --mode (else the
// settings' openMode), --sheet and --cell to the desktop opener; a bad
// mode is refused before anything opens; --folder shows the folder.
func TestOpenMode(t *testing.T) {
	f := newFixture(t)
	rec := fakeOpener(t, f)
	f.write("2024/a.txt", "りんご\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")
	const hit = `営業\2024\a.txt`
	modes := func() []string {
		data, _ := os.ReadFile(rec + ".modes")
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	f.mustRun("open", hit, "--mode", "readOnly", "--sheet", "売上", "--cell", "D5")
	f.mustRun("open", hit)
	if _, errOut, code := f.run("open", hit, "--mode", "edit"); code != 1 || !strings.Contains(errOut, "--mode には normal") {
		t.Errorf("open --mode edit: exit %d, %q", code, errOut)
	}
	settings := filepath.Join(f.ws, "settings.json")
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(settings, []byte(strings.Replace(string(data), "{", `{"openMode": "new",`, 1)), 0o644)
	f.mustRun("open", hit)
	f.mustRun("open", hit, "--folder")
	want := []string{"readOnly\t売上\tD5", "normal\t\t", "new\t\t"}
	if got := modes(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("modes = %q, want %q", got, want)
	}
	if got := opened(rec); len(got) != 4 || got[3] != filepath.Join(f.root, "2024") {
		t.Errorf("opened %v", got)
	}
}
