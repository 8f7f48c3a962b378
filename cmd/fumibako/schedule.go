package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

func init() {
	register(&command{name: "schedule", args: "サブコマンド", summary: "毎日決まった時刻にインデックスを作成するよう、OS の予定に登録する", order: 70,
		about: "Windows はタスク スケジューラ（schtasks）、Linux は systemd のユーザー タイマー（なければ crontab）、macOS は launchd に登録します。"})
	register(&command{name: "schedule install", args: "--at 時:分", summary: "毎日その時刻に fumibako index を実行するよう登録する（登録済みなら置き換える）", order: 1,
		examples: []string{"fumibako schedule install --at 02:00"}, setup: setupScheduleInstall})
	register(&command{name: "schedule show", summary: "登録されている予定を表示する", order: 2, setup: setupScheduleShow})
	register(&command{name: "schedule remove", summary: "登録した予定を外す", order: 3, setup: setupScheduleRemove})
}

// Messages of schedule.
const (
	msgSchedBadAt     = "--at には 02:00 のように 時:分 を指定してください: %s"
	msgSchedInstalled = "毎日 %s に fumibako index を実行するよう登録しました（%s）。"
	msgSchedRemoved   = "予定を外しました（%s）。"
	msgSchedNone      = "予定は登録されていません（%s）。"
	msgSchedFailed    = "予定を登録・変更できませんでした（%s）: %s"
	taskName          = "fumibako-index"
)

// scheduler is one platform's scheduler. Paths and the command runner are
// seams: tests give a temporary folder and record the command lines.
type scheduler struct {
	goos string
	exe  string // the fumibako executable
	ws   string // the workspace, passed with --workspace
	// dir: systemd user unit folder (Linux), LaunchAgents (macOS).
	dir  string
	cron bool // Linux: a crontab line instead of a systemd timer
	run  func(stdin string, name string, args ...string) (string, error)
}

func newScheduler(ws string) (*scheduler, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	s := &scheduler{goos: runtime.GOOS, exe: exe, ws: ws, run: runCommand}
	home, _ := os.UserHomeDir()
	switch s.goos {
	case "darwin":
		s.dir = filepath.Join(home, "Library", "LaunchAgents")
	case "windows":
	default:
		cfg, err := os.UserConfigDir()
		if err != nil {
			cfg = filepath.Join(home, ".config")
		}
		s.dir = filepath.Join(cfg, "systemd", "user")
		_, err = s.run("", "systemctl", "--user", "show-environment")
		s.cron = err != nil
	}
	return s, nil
}

// runCommand runs a scheduler's command and returns its output; a failure
// carries the output, which says why (crontab's and schtasks' own words).
func runCommand(stdin, name string, args ...string) (string, error) {
	c := exec.Command(name, args...)
	if stdin != "" {
		c.Stdin = strings.NewReader(stdin)
	}
	out, err := c.CombinedOutput()
	if err != nil && !errors.Is(err, exec.ErrNotFound) {
		if detail := strings.TrimSpace(string(out)); detail != "" {
			err = fmt.Errorf("%s: %w: %s", name, err, detail)
		} else {
			err = fmt.Errorf("%s: %w", name, err)
		}
	}
	return string(out), err
}

var atRe = regexp.MustCompile(`^([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

// parseAt reads --at (HH:MM) as hour and minute.
func parseAt(at string) (h, m int, ok bool) {
	g := atRe.FindStringSubmatch(at)
	if g == nil {
		return 0, 0, false
	}
	fmt.Sscan(g[1], &h)
	fmt.Sscan(g[2], &m)
	return h, m, true
}

// kind names the scheduler in messages.
func (s *scheduler) kind() string {
	switch {
	case s.goos == "windows":
		return "タスク スケジューラ: " + taskName
	case s.goos == "darwin":
		return "launchd: " + s.plistPath()
	case s.cron:
		return "crontab"
	default:
		return "systemd: " + filepath.Join(s.dir, taskName+".timer")
	}
}

func (s *scheduler) indexArgs() []string { return []string{"--workspace", s.ws, "index", "--plain"} }

// install registers the daily run, replacing fumibako's earlier entry:
// it refuses paths the scheduler's format cannot carry (checkPaths), and
// reads back what it registered (schedule_verify.go), taking it off again
// when it is not what was meant.
func (s *scheduler) install(h, m int) error {
	if err := s.checkPaths(); err != nil {
		return err
	}
	switch {
	case s.goos == "windows":
		if _, err := s.run("", "schtasks", "/Create", "/F", "/SC", "DAILY", "/ST", fmt.Sprintf("%02d:%02d", h, m), "/TN", taskName, "/TR", s.winCommand()); err != nil {
			return err
		}
		if err := s.verifyWindows(h, m); err != nil {
			s.run("", "schtasks", "/Delete", "/F", "/TN", taskName)
			return err
		}
		return nil
	case s.goos == "darwin":
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			return err
		}
		s.run("", "launchctl", "unload", "-w", s.plistPath())
		if err := writeFile(s.plistPath(), s.plist(h, m)); err != nil {
			return err
		}
		if err := s.verifyLaunchd(); err != nil {
			os.Remove(s.plistPath())
			return err
		}
		_, err := s.run("", "launchctl", "load", "-w", s.plistPath())
		return err
	case s.cron:
		cur, err := s.crontab()
		if err != nil {
			return err
		}
		line := s.cronLine(h, m)
		if _, err := s.run(dropCronLine(cur)+line+"\n", "crontab", "-"); err != nil {
			return err
		}
		if err := s.verifyCron(line); err != nil {
			s.run(cur, "crontab", "-") // the table as it was
			return err
		}
		return nil
	default:
		if err := os.MkdirAll(s.dir, 0o755); err != nil {
			return err
		}
		files := map[string]string{
			filepath.Join(s.dir, taskName+".service"): s.service(),
			filepath.Join(s.dir, taskName+".timer"):   timer(h, m),
		}
		for path, content := range files {
			if err := writeFile(path, content); err != nil {
				return err
			}
		}
		if err := s.verifySystemd(files); err != nil {
			s.removeUnits() // an earlier registration's timer too: its unit was replaced
			return err
		}
		if _, err := s.run("", "systemctl", "--user", "daemon-reload"); err != nil {
			return err
		}
		_, err := s.run("", "systemctl", "--user", "enable", "--now", taskName+".timer")
		return err
	}
}

// winCommand is the /TR command line of the task.
func (s *scheduler) winCommand() string {
	tr := winExe(s.exe)
	for _, a := range s.indexArgs() {
		tr += " " + winArg(a)
	}
	return tr
}

// show returns what is registered ("" when nothing).
func (s *scheduler) show() (string, error) {
	switch {
	case s.goos == "windows":
		out, err := s.run("", "schtasks", "/Query", "/TN", taskName, "/FO", "LIST", "/V")
		if err != nil {
			return "", nil
		}
		return out, nil
	case s.goos == "darwin":
		data, err := os.ReadFile(s.plistPath())
		if err != nil {
			return "", nil
		}
		return string(data), nil
	case s.cron:
		cur, _ := s.run("", "crontab", "-l")
		var lines []string
		for _, l := range strings.Split(cur, "\n") {
			if strings.HasSuffix(l, cronMark) {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n"), nil
	default:
		data, err := os.ReadFile(filepath.Join(s.dir, taskName+".timer"))
		if err != nil {
			return "", nil
		}
		return string(data), nil
	}
}

// remove takes the task off; false when none was registered.
func (s *scheduler) remove() (bool, error) {
	if cur, _ := s.show(); cur == "" {
		return false, nil
	}
	switch {
	case s.goos == "windows":
		_, err := s.run("", "schtasks", "/Delete", "/F", "/TN", taskName)
		return true, err
	case s.goos == "darwin":
		s.run("", "launchctl", "unload", "-w", s.plistPath())
		return true, os.Remove(s.plistPath())
	case s.cron:
		cur, _ := s.run("", "crontab", "-l")
		_, err := s.run(dropCronLine(cur), "crontab", "-")
		return true, err
	default:
		return true, s.removeUnits()
	}
}

// removeUnits disables the timer and removes both unit files.
func (s *scheduler) removeUnits() error {
	s.run("", "systemctl", "--user", "disable", "--now", taskName+".timer")
	os.Remove(filepath.Join(s.dir, taskName+".timer"))
	os.Remove(filepath.Join(s.dir, taskName+".service"))
	_, err := s.run("", "systemctl", "--user", "daemon-reload")
	return err
}

func (s *scheduler) plistPath() string { return filepath.Join(s.dir, "jp.fumibako.index.plist") }

func (s *scheduler) plist(h, m int) string {
	var args strings.Builder
	for _, a := range append([]string{s.exe}, s.indexArgs()...) {
		fmt.Fprintf(&args, "\t\t<string>%s</string>\n", xmlEscape(a))
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>jp.fumibako.index</string>
	<key>ProgramArguments</key>
	<array>
` + args.String() + `	</array>
	<key>StartCalendarInterval</key>
	<dict>
		<key>Hour</key>
		<integer>` + fmt.Sprint(h) + `</integer>
		<key>Minute</key>
		<integer>` + fmt.Sprint(m) + `</integer>
	</dict>
</dict>
</plist>
`
}

func (s *scheduler) service() string {
	line := systemdWord(s.exe, true)
	for _, a := range s.indexArgs() {
		line += " " + systemdWord(a, false)
	}
	return "[Unit]\nDescription=fumibako index\n\n[Service]\nType=oneshot\nExecStart=" + line + "\n"
}

func timer(h, m int) string {
	return fmt.Sprintf("[Unit]\nDescription=fumibako index every day\n\n[Timer]\nOnCalendar=*-*-* %02d:%02d:00\nPersistent=true\n\n[Install]\nWantedBy=timers.target\n", h, m)
}

// cronMark ends fumibako's crontab line, so show and remove find it.
const cronMark = " # fumibako index"

func (s *scheduler) cronLine(h, m int) string {
	line := fmt.Sprintf("%d %d * * * %s", m, h, cronWord(s.exe))
	for _, a := range s.indexArgs() {
		line += " " + cronWord(a)
	}
	return line + " >/dev/null 2>&1" + cronMark
}

// dropCronLine removes fumibako's line from a crontab, keeping the rest.
func dropCronLine(tab string) string {
	var out strings.Builder
	for _, l := range strings.SplitAfter(tab, "\n") {
		if l != "" && !strings.HasSuffix(strings.TrimRight(l, "\n"), cronMark) {
			out.WriteString(l)
			if !strings.HasSuffix(l, "\n") {
				out.WriteString("\n")
			}
		}
	}
	return out.String()
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }

func setupScheduleInstall(fs *flag.FlagSet) func(*env, []string) error {
	at := fs.String("at", "02:00", "実行する`時刻`（時:分、毎日）")
	return func(e *env, _ []string) error {
		h, m, ok := parseAt(*at)
		if !ok {
			return usagef("schedule install", msgSchedBadAt, *at)
		}
		s, err := e.scheduler()
		if err != nil {
			return err
		}
		if err := s.install(h, m); err != nil {
			return fatalf(msgSchedFailed, s.kind(), err)
		}
		fmt.Fprintf(e.stdout, msgSchedInstalled+"\n", fmt.Sprintf("%02d:%02d", h, m), s.kind())
		return nil
	}
}

func setupScheduleShow(*flag.FlagSet) func(*env, []string) error {
	return func(e *env, _ []string) error {
		s, err := e.scheduler()
		if err != nil {
			return err
		}
		out, _ := s.show()
		if out == "" {
			fmt.Fprintf(e.stdout, msgSchedNone+"\n", s.kind())
			return nil
		}
		fmt.Fprintf(e.stdout, "%s\n%s\n", s.kind(), strings.TrimRight(out, "\n"))
		return nil
	}
}

func setupScheduleRemove(*flag.FlagSet) func(*env, []string) error {
	return func(e *env, _ []string) error {
		s, err := e.scheduler()
		if err != nil {
			return err
		}
		had, err := s.remove()
		if err != nil {
			return fatalf(msgSchedFailed, s.kind(), err)
		}
		if !had {
			fmt.Fprintf(e.stdout, msgSchedNone+"\n", s.kind())
			return nil
		}
		fmt.Fprintf(e.stdout, msgSchedRemoved+"\n", s.kind())
		return nil
	}
}

// scheduler builds the platform's scheduler for the selected workspace.
func (e *env) scheduler() (*scheduler, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, err
	}
	return newScheduler(ws.Root)
}
