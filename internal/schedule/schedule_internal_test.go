package schedule

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeCmds records the commands a scheduler runs and plays crontab and
// schtasks.
type fakeCmds struct {
	lines []string
	tab   string
	tr    string // the task's /TR
}

func (f *fakeCmds) run(stdin, name string, args ...string) (string, error) {
	f.lines = append(f.lines, strings.Join(append([]string{name}, args...), " "))
	if name == "crontab" && len(args) == 1 && args[0] == "-" {
		f.tab = stdin
	}
	if name == "crontab" && len(args) == 1 && args[0] == "-l" {
		return f.tab, nil
	}
	if name == "schtasks" && args[0] == "/Create" {
		f.tr = args[len(args)-1]
	}
	if name == "schtasks" && args[0] == "/Query" && args[len(args)-1] == "/XML" {
		return taskXMLFor(f.tr, "02:05"), nil
	}
	if name == "schtasks" && args[0] == "/Query" {
		return "TaskName: \\fumibako-index", nil
	}
	return "", nil
}

// taskXMLFor is what `schtasks /Query /XML` shows for a task created with
// /TR tr at hh:mm: the program (quoted, as typed) and the arguments apart.
func taskXMLFor(tr, at string) string {
	prog, args, _ := strings.Cut(tr[1:], `"`)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-16"?>` + "\n")
	b.WriteString(`<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task"><Triggers><CalendarTrigger>`)
	b.WriteString("<StartBoundary>2024-06-01T" + at + ":00</StartBoundary><ScheduleByDay><DaysInterval>1</DaysInterval></ScheduleByDay></CalendarTrigger></Triggers>")
	b.WriteString(`<Actions Context="Author"><Exec><Command>"`)
	xml.EscapeText(&b, []byte(prog))
	b.WriteString(`"</Command><Arguments>`)
	xml.EscapeText(&b, []byte(strings.TrimSpace(args)))
	b.WriteString("</Arguments></Exec></Actions></Task>\n")
	return b.String()
}

// TestScheduleRoundTrip: install, show and remove per platform, with the
// exact command lines and files (the runner and folders are seams).
func TestScheduleRoundTrip(t *testing.T) {
	const exe, ws = "/opt/fumi bako/fumibako", "/home/u/ws"
	tests := []struct {
		name        string
		s           Scheduler
		install     []string
		files       map[string]string // name in dir → a line it must hold
		remove      []string
		keepCronTab string
	}{
		{name: "windows", s: Scheduler{GOOS: "windows", Exe: `C:\Program Files\fumibako\fumibako.exe`, Workspace: `C:\Users\u\ws\`},
			install: []string{`schtasks /Create /F /SC DAILY /ST 02:05 /TN fumibako-index /TR "C:\Program Files\fumibako\fumibako.exe" "--workspace" "C:\Users\u\ws\\" "index" "--plain"`,
				`schtasks /Query /TN fumibako-index /XML`},
			remove: []string{`schtasks /Query /TN fumibako-index /FO LIST /V`, `schtasks /Delete /F /TN fumibako-index`}},
		{name: "systemd", s: Scheduler{GOOS: "linux", Exe: exe, Workspace: ws},
			install: []string{"systemd-analyze verify {dir}/fumibako-index.service {dir}/fumibako-index.timer",
				"systemctl --user daemon-reload", "systemctl --user enable --now fumibako-index.timer"},
			files: map[string]string{"fumibako-index.timer": "OnCalendar=*-*-* 02:05:00",
				"fumibako-index.service": `ExecStart="/opt/fumi bako/fumibako" "--workspace" "/home/u/ws" "index" "--plain"`},
			remove: []string{"systemctl --user disable --now fumibako-index.timer", "systemctl --user daemon-reload"}},
		{name: "crontab", s: Scheduler{GOOS: "linux", Exe: exe, Workspace: ws, Cron: true}, keepCronTab: "0 3 * * * backup\n",
			install: []string{"crontab -l", "crontab -", "crontab -l"},
			remove:  []string{"crontab -l", "crontab -l", "crontab -"}},
		{name: "launchd", s: Scheduler{GOOS: "darwin", Exe: exe, Workspace: ws},
			install: []string{"launchctl unload -w {dir}/jp.fumibako.index.plist", "launchctl load -w {dir}/jp.fumibako.index.plist"},
			files:   map[string]string{"jp.fumibako.index.plist": "<key>Hour</key>\n\t\t<integer>2</integer>\n\t\t<key>Minute</key>\n\t\t<integer>5</integer>"},
			remove:  []string{"launchctl unload -w {dir}/jp.fumibako.index.plist"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fc := &fakeCmds{tab: tt.keepCronTab}
			s := tt.s
			s.Dir, s.Run = dir, fc.run
			sub := func(l []string) []string {
				var out []string
				for _, x := range l {
					out = append(out, strings.ReplaceAll(x, "{dir}", dir))
				}
				return out
			}
			if err := s.Install(2, 5); err != nil {
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
			if s.Cron {
				want := tt.keepCronTab + "5 2 * * * '/opt/fumi bako/fumibako' '--workspace' '/home/u/ws' 'index' '--plain' >/dev/null 2>&1 # fumibako index\n"
				if fc.tab != want {
					t.Errorf("crontab = %q, want %q", fc.tab, want)
				}
			}
			if out, _ := s.Show(); out == "" {
				t.Errorf("show after install: nothing")
			}
			fc.lines = nil
			had, err := s.Remove()
			if err != nil || !had {
				t.Fatalf("remove = %v, %v", had, err)
			}
			if s.GOOS != "windows" && !reflect.DeepEqual(fc.lines, sub(tt.remove)) {
				t.Errorf("remove ran\n%q\nwant\n%q", fc.lines, sub(tt.remove))
			}
			if s.GOOS == "windows" && !reflect.DeepEqual(fc.lines, tt.remove) {
				t.Errorf("remove ran %q, want %q", fc.lines, tt.remove)
			}
			if s.Cron && fc.tab != tt.keepCronTab {
				t.Errorf("crontab after remove = %q, want %q", fc.tab, tt.keepCronTab)
			}
			if s.GOOS != "windows" && !s.Cron {
				if out, _ := s.Show(); out != "" {
					t.Errorf("show after remove = %q", out)
				}
			}
		})
	}
	if _, _, ok := ParseAt("24:00"); ok {
		t.Error("ParseAt accepts 24:00")
	}
	if h, m, ok := ParseAt("2:30"); !ok || h != 2 || m != 30 {
		t.Errorf("ParseAt(2:30) = %d %d %v", h, m, ok)
	}
}
