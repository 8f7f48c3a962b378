package workspace_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// settingsRaceEnv makes this test binary a child of
// TestIssue36UpdateSettingsRace: "<workspace>|<writer>|<seconds>".
const settingsRaceEnv = "FUMIBAKO_SETTINGS_RACE_CHILD"

// raceAdd adds one root named <writer>-<n> under the settings lock and
// reports whether UpdateSettings said it was saved.
func raceAdd(ws *workspace.Workspace, writer string, n int) (string, error) {
	name := fmt.Sprintf("%s-%04d", writer, n)
	_, err := ws.UpdateSettings(func(s *workspace.Settings) error {
		s.Roots = append(s.Roots, workspace.Root{Name: name, Path: "/srv/" + name})
		return nil
	})
	return name, err
}

// TestIssue36UpdateSettingsRace: goroutines of this process and two child
// processes add roots through UpdateSettings while readers load the file,
// for FUMIBAKO_SETTINGS_RACE_SECONDS (default 2). Every add reported as
// saved is in the final file, no reader sees an error or a broken file,
// nothing is moved aside and no temporary file is left.
func TestIssue36UpdateSettingsRace(t *testing.T) {
	if spec := os.Getenv(settingsRaceEnv); spec != "" {
		raceChild(spec)
		return
	}
	seconds := 2.0
	if v := os.Getenv("FUMIBAKO_SETTINGS_RACE_SECONDS"); v != "" {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n <= 0 {
			t.Fatalf("FUMIBAKO_SETTINGS_RACE_SECONDS=%q", v)
		}
		seconds = n
	}
	ws, err := workspace.Open(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	var children []*exec.Cmd
	for i := range 2 {
		c := exec.Command(os.Args[0], "-test.run=^TestIssue36UpdateSettingsRace$")
		c.Env = append(os.Environ(), fmt.Sprintf("%s=%s|proc%d|%g", settingsRaceEnv, ws.Root, i, seconds))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		children = append(children, c)
	}
	deadline := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	var mu sync.Mutex
	var saved, problems []string
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(2)
		go func() { // writer
			defer wg.Done()
			for n := 0; time.Now().Before(deadline); n++ {
				name, err := raceAdd(ws, fmt.Sprintf("go%d", g), n)
				mu.Lock()
				if err != nil {
					problems = append(problems, fmt.Sprintf("%s: %v", name, err))
				} else {
					saved = append(saved, name)
				}
				mu.Unlock()
			}
		}()
		go func() { // reader
			defer wg.Done()
			for time.Now().Before(deadline) {
				if _, err := ws.LoadSettings(); err != nil {
					mu.Lock()
					problems = append(problems, fmt.Sprintf("read: %v", err))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, c := range children {
		if err := c.Wait(); err != nil {
			t.Errorf("child: %v", err)
		}
	}
	// The children write what they saved to <workspace>/<writer>.saved.
	for i := range children {
		data, err := os.ReadFile(filepath.Join(ws.Root, fmt.Sprintf("proc%d.saved", i)))
		if err != nil {
			t.Fatal(err)
		}
		saved = append(saved, strings.Fields(string(data))...)
	}
	s, err := ws.LoadSettings()
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, r := range s.Roots {
		have = append(have, r.Name)
	}
	lost := 0
	for _, name := range saved {
		if !slices.Contains(have, name) {
			lost++
			if lost <= 10 {
				t.Errorf("%s was reported saved and is not in settings.json", name)
			}
		}
	}
	if len(have) != len(saved) {
		t.Errorf("settings.json holds %d roots, %d were saved", len(have), len(saved))
	}
	for i, p := range problems {
		if i < 10 {
			t.Error(p)
		}
	}
	if m, _ := filepath.Glob(ws.SettingsPath() + ".*"); len(m) > 0 {
		t.Errorf("left beside settings.json: %v", m)
	}
	t.Logf("%d adds saved by 3 goroutines and 2 processes in %gs, %d lost", len(saved), seconds, lost)
}

// raceChild is a child process of TestIssue36UpdateSettingsRace: it adds
// roots until its time is up and writes the names it saved, one a line.
func raceChild(spec string) {
	parts := strings.Split(spec, "|")
	seconds, _ := strconv.ParseFloat(parts[2], 64)
	ws := &workspace.Workspace{Root: parts[0]}
	deadline := time.Now().Add(time.Duration(seconds * float64(time.Second)))
	var saved []string
	for n := 0; time.Now().Before(deadline); n++ {
		name, err := raceAdd(ws, parts[1], n)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		saved = append(saved, name)
	}
	out := filepath.Join(parts[0], parts[1]+".saved")
	if err := os.WriteFile(out, []byte(strings.Join(saved, "\n")), 0o644); err != nil {
		os.Exit(4)
	}
	os.Exit(0)
}

// TestUpdateSettingsEdits: an edit's error writes nothing; a broken file
// is moved aside and salvaged before the edit sees it, with the notice.
func TestUpdateSettingsEdits(t *testing.T) {
	ws, err := workspace.Open(filepath.Join(t.TempDir(), "ws"))
	if err != nil {
		t.Fatal(err)
	}
	good := `{"targetFolders": [{"name": "営業", "path": "/srv/営業"}]}`
	os.WriteFile(ws.SettingsPath(), []byte(good), 0o644)
	refused := errors.New("refused")
	_, err = ws.UpdateSettings(func(s *workspace.Settings) error {
		s.Roots = nil
		return refused
	})
	if data, _ := os.ReadFile(ws.SettingsPath()); err != refused || string(data) != good {
		t.Fatalf("refused edit: %v, file %q", err, data)
	}

	os.WriteFile(ws.SettingsPath(), []byte(`{"targetFolders": [{"name": "営業", "path": "/srv/営業"}`), 0o644)
	var seen []string
	broken, err := ws.UpdateSettings(func(s *workspace.Settings) error {
		for _, r := range s.Roots {
			seen = append(seen, r.Name)
		}
		s.Roots = append(s.Roots, workspace.Root{Name: "経理", Path: "/srv/経理"})
		return nil
	})
	if err != nil || broken == nil || !slices.Equal(seen, []string{"営業"}) {
		t.Fatalf("edit of a broken file: broken %v, err %v, saw %v", broken, err, seen)
	}
	s, err := ws.LoadSettings()
	if err != nil || len(s.Roots) != 2 || s.Roots[1].Name != "経理" {
		t.Fatalf("after the edit: %+v, %v", s, err)
	}
	if data, _ := os.ReadFile(broken.MovedTo); !strings.HasSuffix(string(data), `"/srv/営業"}`) {
		t.Errorf("moved-aside file %s holds %q", broken.MovedTo, data)
	}
}
