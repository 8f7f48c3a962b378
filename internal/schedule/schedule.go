package schedule

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"golang.org/x/text/encoding"
)

// taskName is the task's name (Task Scheduler) and the systemd units'.
const taskName = "fumibako-index"

// Scheduler is one platform's scheduler (New gives this system's). Paths
// and the command runner are seams: tests give a temporary folder and
// record the command lines.
type Scheduler struct {
	GOOS      string // runtime.GOOS of the system it registers on
	Exe       string // the fumibako executable
	Workspace string // the workspace, passed with --workspace
	// Dir: systemd user unit folder (Linux), LaunchAgents (macOS).
	Dir  string
	Cron bool // Linux: a crontab line instead of a systemd timer
	// Run runs a scheduler's command (RunCommand) and returns its output.
	Run func(stdin string, name string, args ...string) (string, error)
	// ToolEncoding is what a Windows tool's output is in when it is
	// neither UTF-16 nor UTF-8: the console's code page (nil: Shift_JIS).
	ToolEncoding encoding.Encoding
}

// New returns this system's scheduler for the workspace ws: the running
// executable, and on Linux a systemd user timer when systemd answers,
// else crontab.
func New(ws string) (*Scheduler, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	s := &Scheduler{GOOS: runtime.GOOS, Exe: exe, Workspace: ws, Run: RunCommand}
	home, _ := os.UserHomeDir()
	switch s.GOOS {
	case "darwin":
		s.Dir = filepath.Join(home, "Library", "LaunchAgents")
	case "windows":
	default:
		cfg, err := os.UserConfigDir()
		if err != nil {
			cfg = filepath.Join(home, ".config")
		}
		s.Dir = filepath.Join(cfg, "systemd", "user")
		_, err = s.Run("", "systemctl", "--user", "show-environment")
		s.Cron = err != nil
	}
	return s, nil
}

// RunCommand runs a scheduler's command and returns its output; a failure
// carries the output, which says why (crontab's and schtasks' own words).
func RunCommand(stdin, name string, args ...string) (string, error) {
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

// ParseAt reads --at (HH:MM) as hour and minute.
func ParseAt(at string) (h, m int, ok bool) {
	g := atRe.FindStringSubmatch(at)
	if g == nil {
		return 0, 0, false
	}
	fmt.Sscan(g[1], &h)
	fmt.Sscan(g[2], &m)
	return h, m, true
}

// Kind names the scheduler in messages.
func (s *Scheduler) Kind() string {
	switch {
	case s.GOOS == "windows":
		return "タスク スケジューラ: " + taskName
	case s.GOOS == "darwin":
		return "launchd: " + s.plistPath()
	case s.Cron:
		return "crontab"
	default:
		return "systemd: " + filepath.Join(s.Dir, taskName+".timer")
	}
}

func (s *Scheduler) indexArgs() []string {
	return []string{"--workspace", s.Workspace, "index", "--plain"}
}

// Install registers the daily run, replacing fumibako's earlier entry:
// it refuses paths the scheduler's format cannot carry (checkPaths), and
// reads back what it registered (verify.go), taking it off again
// when it is not what was meant.
func (s *Scheduler) Install(h, m int) error {
	if err := s.checkPaths(); err != nil {
		return err
	}
	switch {
	case s.GOOS == "windows":
		if _, err := s.Run("", "schtasks", "/Create", "/F", "/SC", "DAILY", "/ST", fmt.Sprintf("%02d:%02d", h, m), "/TN", taskName, "/TR", s.winCommand()); err != nil {
			return err
		}
		if err := s.verifyWindows(h, m); err != nil {
			s.Run("", "schtasks", "/Delete", "/F", "/TN", taskName)
			return err
		}
		return nil
	case s.GOOS == "darwin":
		if err := os.MkdirAll(s.Dir, 0o755); err != nil {
			return err
		}
		s.Run("", "launchctl", "unload", "-w", s.plistPath())
		if err := writeFile(s.plistPath(), s.plist(h, m)); err != nil {
			return err
		}
		if err := s.verifyLaunchd(); err != nil {
			os.Remove(s.plistPath())
			return err
		}
		_, err := s.Run("", "launchctl", "load", "-w", s.plistPath())
		return err
	case s.Cron:
		cur, err := s.crontab()
		if err != nil {
			return err
		}
		line := s.cronLine(h, m)
		if _, err := s.Run(dropCronLine(cur)+line+"\n", "crontab", "-"); err != nil {
			return err
		}
		if err := s.verifyCron(line); err != nil {
			s.Run(cur, "crontab", "-") // the table as it was
			return err
		}
		return nil
	default:
		if err := os.MkdirAll(s.Dir, 0o755); err != nil {
			return err
		}
		files := map[string]string{
			filepath.Join(s.Dir, taskName+".service"): s.service(),
			filepath.Join(s.Dir, taskName+".timer"):   timer(h, m),
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
		if _, err := s.Run("", "systemctl", "--user", "daemon-reload"); err != nil {
			return err
		}
		_, err := s.Run("", "systemctl", "--user", "enable", "--now", taskName+".timer")
		return err
	}
}

// winCommand is the /TR command line of the task.
func (s *Scheduler) winCommand() string {
	tr := winExe(s.Exe)
	for _, a := range s.indexArgs() {
		tr += " " + winArg(a)
	}
	return tr
}

// Show returns what is registered ("" when nothing).
func (s *Scheduler) Show() (string, error) {
	switch {
	case s.GOOS == "windows":
		out, err := s.Run("", "schtasks", "/Query", "/TN", taskName, "/FO", "LIST", "/V")
		if err != nil {
			return "", nil
		}
		return out, nil
	case s.GOOS == "darwin":
		data, err := os.ReadFile(s.plistPath())
		if err != nil {
			return "", nil
		}
		return string(data), nil
	case s.Cron:
		cur, _ := s.Run("", "crontab", "-l")
		var lines []string
		for _, l := range strings.Split(cur, "\n") {
			if strings.HasSuffix(l, CronMark) {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n"), nil
	default:
		data, err := os.ReadFile(filepath.Join(s.Dir, taskName+".timer"))
		if err != nil {
			return "", nil
		}
		return string(data), nil
	}
}

// Remove takes the task off; false when none was registered.
func (s *Scheduler) Remove() (bool, error) {
	if cur, _ := s.Show(); cur == "" {
		return false, nil
	}
	switch {
	case s.GOOS == "windows":
		_, err := s.Run("", "schtasks", "/Delete", "/F", "/TN", taskName)
		return true, err
	case s.GOOS == "darwin":
		s.Run("", "launchctl", "unload", "-w", s.plistPath())
		return true, os.Remove(s.plistPath())
	case s.Cron:
		cur, _ := s.Run("", "crontab", "-l")
		_, err := s.Run(dropCronLine(cur), "crontab", "-")
		return true, err
	default:
		return true, s.removeUnits()
	}
}

// removeUnits disables the timer and removes both unit files.
func (s *Scheduler) removeUnits() error {
	s.Run("", "systemctl", "--user", "disable", "--now", taskName+".timer")
	os.Remove(filepath.Join(s.Dir, taskName+".timer"))
	os.Remove(filepath.Join(s.Dir, taskName+".service"))
	_, err := s.Run("", "systemctl", "--user", "daemon-reload")
	return err
}

func (s *Scheduler) plistPath() string { return filepath.Join(s.Dir, "jp.fumibako.index.plist") }

func (s *Scheduler) plist(h, m int) string {
	var args strings.Builder
	for _, a := range append([]string{s.Exe}, s.indexArgs()...) {
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

func (s *Scheduler) service() string {
	line := SystemdWord(s.Exe, true)
	for _, a := range s.indexArgs() {
		line += " " + SystemdWord(a, false)
	}
	return "[Unit]\nDescription=fumibako index\n\n[Service]\nType=oneshot\nExecStart=" + line + "\n"
}

func timer(h, m int) string {
	return fmt.Sprintf("[Unit]\nDescription=fumibako index every day\n\n[Timer]\nOnCalendar=*-*-* %02d:%02d:00\nPersistent=true\n\n[Install]\nWantedBy=timers.target\n", h, m)
}

// CronMark ends fumibako's crontab line, so show and remove find it.
const CronMark = " # fumibako index"

func (s *Scheduler) cronLine(h, m int) string {
	line := fmt.Sprintf("%d %d * * * %s", m, h, CronWord(s.Exe))
	for _, a := range s.indexArgs() {
		line += " " + CronWord(a)
	}
	return line + " >/dev/null 2>&1" + CronMark
}

// dropCronLine removes fumibako's line from a crontab, keeping the rest.
func dropCronLine(tab string) string {
	var out strings.Builder
	for _, l := range strings.SplitAfter(tab, "\n") {
		if l != "" && !strings.HasSuffix(strings.TrimRight(l, "\n"), CronMark) {
			out.WriteString(l)
			if !strings.HasSuffix(l, "\n") {
				out.WriteString("\n")
			}
		}
	}
	return out.String()
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }
