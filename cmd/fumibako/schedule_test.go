package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeCrontab records the commands a scheduler runs and plays crontab.
type fakeCmds struct {
	lines []string
	tab   string
}

func (f *fakeCmds) run(stdin, name string, args ...string) (string, error) {
	f.lines = append(f.lines, strings.Join(append([]string{name}, args...), " "))
	if name == "crontab" && len(args) == 1 && args[0] == "-" {
		f.tab = stdin
	}
	if name == "crontab" && len(args) == 1 && args[0] == "-l" {
		return f.tab, nil
	}
	if name == "schtasks" && args[0] == "/Query" {
		return "TaskName: \\fumibako-index", nil
	}
	return "", nil
}

// TestScheduleRoundTrip: install, show and remove per platform, with the
// exact command lines and files (the runner and folders are seams).
func TestScheduleRoundTrip(t *testing.T) {
	const exe, ws = "/opt/fumi bako/fumibako", "/home/u/ws"
	tests := []struct {
		name        string
		s           scheduler
		install     []string
		files       map[string]string // name in dir → a line it must hold
		remove      []string
		keepCronTab string
	}{
		{name: "windows", s: scheduler{goos: "windows", exe: `C:\Program Files\fumibako\fumibako.exe`, ws: `C:\Users\u\ws\`},
			install: []string{`schtasks /Create /F /SC DAILY /ST 02:05 /TN fumibako-index /TR "C:\Program Files\fumibako\fumibako.exe" "--workspace" "C:\Users\u\ws" "index" "--plain"`},
			remove:  []string{`schtasks /Query /TN fumibako-index /FO LIST /V`, `schtasks /Delete /F /TN fumibako-index`}},
		{name: "systemd", s: scheduler{goos: "linux", exe: exe, ws: ws},
			install: []string{"systemctl --user daemon-reload", "systemctl --user enable --now fumibako-index.timer"},
			files: map[string]string{"fumibako-index.timer": "OnCalendar=*-*-* 02:05:00",
				"fumibako-index.service": "ExecStart='/opt/fumi bako/fumibako' '--workspace' '/home/u/ws' 'index' '--plain'"},
			remove: []string{"systemctl --user disable --now fumibako-index.timer", "systemctl --user daemon-reload"}},
		{name: "crontab", s: scheduler{goos: "linux", exe: exe, ws: ws, cron: true}, keepCronTab: "0 3 * * * backup\n",
			install: []string{"crontab -l", "crontab -"},
			remove:  []string{"crontab -l", "crontab -l", "crontab -"}},
		{name: "launchd", s: scheduler{goos: "darwin", exe: exe, ws: ws},
			install: []string{"launchctl unload -w {dir}/jp.fumibako.index.plist", "launchctl load -w {dir}/jp.fumibako.index.plist"},
			files:   map[string]string{"jp.fumibako.index.plist": "<key>Hour</key>\n\t\t<integer>2</integer>\n\t\t<key>Minute</key>\n\t\t<integer>5</integer>"},
			remove:  []string{"launchctl unload -w {dir}/jp.fumibako.index.plist"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fc := &fakeCmds{tab: tt.keepCronTab}
			s := tt.s
			s.dir, s.run = dir, fc.run
			sub := func(l []string) []string {
				var out []string
				for _, x := range l {
					out = append(out, strings.ReplaceAll(x, "{dir}", dir))
				}
				return out
			}
			if err := s.install(2, 5); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fc.lines, sub(tt.install)) {
				t.Errorf("install ran\n%q\nwant\n%q", fc.lines, sub(tt.install))
			}
			for name, want := range tt.files {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil || !strings.Contains(string(data), want) {
					t.Errorf("%s = %q (%v), want it to hold %q", name, data, err, want)
				}
			}
			if s.cron {
				want := tt.keepCronTab + "5 2 * * * '/opt/fumi bako/fumibako' '--workspace' '/home/u/ws' 'index' '--plain' >/dev/null 2>&1 # fumibako index\n"
				if fc.tab != want {
					t.Errorf("crontab = %q, want %q", fc.tab, want)
				}
			}
			if out, _ := s.show(); out == "" {
				t.Errorf("show after install: nothing")
			}
			fc.lines = nil
			had, err := s.remove()
			if err != nil || !had {
				t.Fatalf("remove = %v, %v", had, err)
			}
			if s.goos != "windows" && !reflect.DeepEqual(fc.lines, sub(tt.remove)) {
				t.Errorf("remove ran\n%q\nwant\n%q", fc.lines, sub(tt.remove))
			}
			if s.goos == "windows" && !reflect.DeepEqual(fc.lines, tt.remove) {
				t.Errorf("remove ran %q, want %q", fc.lines, tt.remove)
			}
			if s.cron && fc.tab != tt.keepCronTab {
				t.Errorf("crontab after remove = %q, want %q", fc.tab, tt.keepCronTab)
			}
			if s.goos != "windows" && !s.cron {
				if out, _ := s.show(); out != "" {
					t.Errorf("show after remove = %q", out)
				}
			}
		})
	}
	if _, _, ok := parseAt("24:00"); ok {
		t.Error("parseAt accepts 24:00")
	}
	if h, m, ok := parseAt("2:30"); !ok || h != 2 || m != 30 {
		t.Errorf("parseAt(2:30) = %d %d %v", h, m, ok)
	}
}
