//go:build !windows

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/schedule"
)

// Stub schedulers: shell scripts named crontab, systemctl, systemd-analyze
// and schtasks, first on PATH, that record what they are given and play
// the scheduler (STUB_DIR holds their state).
var schedStubs = map[string]string{
	"systemctl": `#!/bin/sh
printf 'systemctl %s\n' "$*" >> "$STUB_DIR/log"
if [ "$1 $2" = "--user show-environment" ]; then exit "${STUB_NO_SYSTEMD:-0}"; fi
exit 0
`,
	"systemd-analyze": `#!/bin/sh
printf 'systemd-analyze %s\n' "$*" >> "$STUB_DIR/log"
if [ -n "$STUB_ANALYZE_FAIL" ]; then echo "$2:6: Failed to resolve unit specifiers in /x%Z: Invalid slot" >&2; exit 1; fi
if [ -n "$STUB_REAL_ANALYZE" ]; then exec "$STUB_REAL_ANALYZE" "$@"; fi
exit 0
`,
	"crontab": `#!/bin/sh
printf 'crontab %s\n' "$*" >> "$STUB_DIR/log"
case "$1" in
-l) if [ -f "$STUB_DIR/crontab" ]; then cat "$STUB_DIR/crontab"; else echo "no crontab for tester" >&2; exit 1; fi ;;
-) cat > "$STUB_DIR/crontab.in"
   cat "$STUB_DIR/crontab.in" >> "$STUB_DIR/crontab.inputs"
   if [ -n "$STUB_CRON_MANGLE" ]; then sed 's/%.*//' "$STUB_DIR/crontab.in" > "$STUB_DIR/crontab"
   else cp "$STUB_DIR/crontab.in" "$STUB_DIR/crontab"; fi ;;
esac
`,
	// schtasks keeps the /TR of /Create and shows it as Task Scheduler's
	// XML does: the program and the arguments apart.
	"schtasks": `#!/bin/sh
printf 'schtasks %s\n' "$1" >> "$STUB_DIR/log"
last=""
for a in "$@"; do last="$a"; done
case "$1" in
/Create) printf '%s' "$last" > "$STUB_DIR/tr" ;;
/Delete) rm -f "$STUB_DIR/tr" ;;
/Query) [ -f "$STUB_DIR/tr" ] || { echo "ERROR: The system cannot find the file specified." >&2; exit 1; }
   tr=$(cat "$STUB_DIR/tr")
   cmd="${tr%%\" *}\""
   args="${tr#*\" }"
   if [ -n "$STUB_SCHTASKS_MANGLE" ]; then args="${args% *}"; fi
   esc() { printf '%s' "$1" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
   printf '<?xml version="1.0" encoding="UTF-16"?>\n<Task xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task"><Triggers><CalendarTrigger><StartBoundary>2024-06-01T02:05:00</StartBoundary></CalendarTrigger></Triggers><Actions Context="Author"><Exec><Command>%s</Command><Arguments>%s</Arguments></Exec></Actions></Task>\n' "$(esc "$cmd")" "$(esc "$args")" ;;
esac
`,
}

// stubEnv writes the stub schedulers and returns the environment that puts
// them first on PATH, with a private config folder and STUB_DIR.
func stubEnv(t *testing.T, extra ...string) (dir string, env []string) {
	t.Helper()
	dir = t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	for name, script := range schedStubs {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = append([]string{"PATH=" + bin + ":/usr/bin:/bin", "STUB_DIR=" + dir, "HOME=" + dir,
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config")}, extra...)
	return dir, env
}

// cronPercent applies cron's rule to a crontab command (cronie's and
// Vixie cron's do_command): \% is a %, and an unescaped % ends the command
// (what follows is its standard input).
func cronPercent(cmd string) string {
	var out []byte
	escaped := false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		if escaped {
			if c == '%' {
				out[len(out)-1] = '%'
			} else {
				out = append(out, c)
			}
			escaped = false
			continue
		}
		if c == '%' {
			break
		}
		escaped = c == '\\'
		out = append(out, c)
	}
	return string(out)
}

// cronArgs is what cron and sh make of fumibako's crontab line: the words
// the program is started with.
func cronArgs(t *testing.T, line string) []string {
	t.Helper()
	fields := strings.SplitN(line, " ", 6)
	if len(fields) != 6 {
		t.Fatalf("crontab line %q", line)
	}
	cmd := cronPercent(strings.TrimSuffix(fields[5], schedule.CronMark))
	cmd = strings.TrimSuffix(cmd, " >/dev/null 2>&1")
	out, err := exec.Command("sh", "-c", "set -- "+cmd+"\nfor a do printf '%s\\0' \"$a\"; done").Output()
	if err != nil {
		t.Fatalf("sh on %q: %v", cmd, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// TestIssue36ScheduleStubs runs `fumibako schedule install` with stub
// crontab, systemctl and systemd-analyze for workspaces whose paths hold
// what each format must escape or refuse: a newline that would add a
// crontab line of its own, cron's %, systemd's specifiers, ${VAR}, a
// backslash, quotes, spaces, Japanese. Each is registered so that the
// program gets exactly its path (the crontab line through cron's % rule
// and sh; the unit as written), or refused with the message and nothing
// registered; never 登録しました for what was not meant.
func TestIssue36ScheduleStubs(t *testing.T) {
	realAnalyze, _ := exec.LookPath("systemd-analyze")
	base := t.TempDir()
	// An executable under a folder with % and $ in its name (a hard link
	// of the test binary: /proc/self/exe names the path it was run by).
	oddBin := filepath.Join(base, "bin%h$x")
	os.MkdirAll(oddBin, 0o755)
	oddExe := filepath.Join(oddBin, "fumibako")
	if err := os.Link(testBinary, oddExe); err != nil {
		data, rerr := os.ReadFile(testBinary)
		if rerr != nil || os.WriteFile(oddExe, data, 0o755) != nil {
			t.Fatalf("copy the binary: %v %v", err, rerr)
		}
	}
	tests := []struct {
		name   string
		dir    string // the workspace folder's name
		exe    string // "" = the test binary
		cron   string // the refused character's name for crontab, "" = registered
		cronIn string // the workspace word as written in the crontab line
		unit   string // the workspace word as written in ExecStart
	}{
		{name: "newline", dir: "ws\n* * * * * touch PWNED", cron: "改行",
			unit: `"{base}/ws\n* * * * * touch PWNED"`},
		{name: "percent", dir: "売上100%", cronIn: `'{base}/売上100\%'`, unit: `"{base}/売上100%%"`},
		{name: "specifier Z", dir: "a%Zb", cronIn: `'{base}/a\%Zb'`, unit: `"{base}/a%%Zb"`},
		{name: "specifier h", dir: "%h", cronIn: `'{base}/\%h'`, unit: `"{base}/%%h"`},
		{name: "variable", dir: "${HOME}と$USER", cronIn: `'{base}/${HOME}と$USER'`, unit: `"{base}/$${HOME}と$$USER"`},
		{name: "backslash", dir: `a\nb\%c`, cron: "「\\」", unit: `"{base}/a\\nb\\%%c"`},
		{name: "quotes", dir: `it's "x"`, cronIn: `'{base}/it'\''s "x"'`, unit: `"{base}/it's \"x\""`},
		{name: "spaces and Japanese", dir: "共有 フォルダ/文箱", cronIn: `'{base}/共有 フォルダ/文箱'`, unit: `"{base}/共有 フォルダ/文箱"`},
		{name: "odd executable", dir: "ws", exe: oddExe, cronIn: `'{base}/ws'`, unit: `"{base}/ws"`},
	}
	for _, tt := range tests {
		ws := filepath.Join(base, tt.dir)
		exe := testBinary
		if tt.exe != "" {
			exe = tt.exe
		}
		sub := func(s string) string { return strings.ReplaceAll(s, "{base}", base) }
		install := func(t *testing.T, env []string) (string, string, int) {
			c := exec.Command(exe, "--workspace", ws, "schedule", "install", "--at", "02:05")
			c.Env = append(os.Environ(), env...)
			out, errOut, code, err := runCmd(c)
			if err != nil {
				t.Fatal(err)
			}
			return out, errOut, code
		}
		t.Run(tt.name+"/crontab", func(t *testing.T) {
			dir, env := stubEnv(t, "STUB_NO_SYSTEMD=1")
			os.WriteFile(filepath.Join(dir, "crontab"), []byte("0 3 * * * backup\n"), 0o644)
			out, errOut, code := install(t, env)
			tab, _ := os.ReadFile(filepath.Join(dir, "crontab"))
			inputs, _ := os.ReadFile(filepath.Join(dir, "crontab.inputs"))
			if strings.Contains(string(inputs), "\n* * * * * touch PWNED") {
				t.Fatalf("crontab was given the injected line:\n%s", inputs)
			}
			if tt.cron != "" {
				if code != 1 || strings.Contains(out, "登録しました") || !strings.Contains(errOut, "には"+tt.cron+"が含まれているため、crontab に正しく書けません") {
					t.Errorf("install = exit %d\n%s%s, want the refusal naming %s", code, out, errOut, tt.cron)
				}
				if len(inputs) != 0 || string(tab) != "0 3 * * * backup\n" {
					t.Errorf("crontab changed though refused: input %q, table %q", inputs, tab)
				}
				return
			}
			if code != 0 || !strings.Contains(out, "登録しました（crontab）") {
				t.Fatalf("install = exit %d\n%s%s", code, out, errOut)
			}
			want := "0 3 * * * backup\n5 2 * * * " + schedule.CronWord(exe) + " '--workspace' " + sub(tt.cronIn) + " 'index' '--plain' >/dev/null 2>&1 # fumibako index\n"
			if string(tab) != want {
				t.Fatalf("crontab =\n%q\nwant\n%q", tab, want)
			}
			lines := strings.Split(strings.TrimSuffix(string(tab), "\n"), "\n")
			got := cronArgs(t, lines[1])
			if wantArgs := []string{exe, "--workspace", ws, "index", "--plain"}; !slices.Equal(got, wantArgs) {
				t.Errorf("cron and sh run %q, want %q", got, wantArgs)
			}
		})
		t.Run(tt.name+"/systemd", func(t *testing.T) {
			dir, env := stubEnv(t, "STUB_REAL_ANALYZE="+realAnalyze)
			out, errOut, code := install(t, env)
			if code != 0 || !strings.Contains(out, "登録しました（systemd:") {
				t.Fatalf("install = exit %d\n%s%s", code, out, errOut)
			}
			unit, _ := os.ReadFile(filepath.Join(dir, "config", "systemd", "user", "fumibako-index.service"))
			want := "ExecStart=" + schedule.SystemdWord(exe, true) + ` "--workspace" ` + sub(tt.unit) + ` "index" "--plain"` + "\n"
			if !strings.HasSuffix(string(unit), want) {
				t.Fatalf("unit =\n%s\nwant it to end with\n%s", unit, want)
			}
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			if !strings.Contains(string(log), "systemd-analyze verify ") || !strings.Contains(string(log), "systemctl --user enable --now fumibako-index.timer") {
				t.Errorf("commands run:\n%s", log)
			}
		})
	}
}

// TestIssue36ScheduleCheckFails: a scheduler that holds something other
// than what was registered (a crontab cut at %, a unit systemd-analyze
// rejects, a task whose arguments differ) makes install fail with the
// message, never 登録しました, and takes the entry off again.
func TestIssue36ScheduleCheckFails(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "売上100%")
	run := func(t *testing.T, env []string) (string, int) {
		c := exec.Command(testBinary, "--workspace", ws, "schedule", "install")
		c.Env = append(os.Environ(), env...)
		out, err := c.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return string(out), code
	}
	t.Run("crontab", func(t *testing.T) {
		dir, env := stubEnv(t, "STUB_NO_SYSTEMD=1", "STUB_CRON_MANGLE=1")
		os.WriteFile(filepath.Join(dir, "crontab"), []byte("0 3 * * * backup\n"), 0o644)
		out, code := run(t, env)
		tab, _ := os.ReadFile(filepath.Join(dir, "crontab"))
		if code != 1 || strings.Contains(out, "登録しました") || !strings.Contains(out, "登録しようとしたものと違っていたため、取り消しました") {
			t.Errorf("install = exit %d\n%s", code, out)
		}
		if string(tab) != "0 3 * * * backup\n" {
			t.Errorf("crontab not put back: %q", tab)
		}
	})
	t.Run("systemd", func(t *testing.T) {
		dir, env := stubEnv(t, "STUB_ANALYZE_FAIL=1")
		out, code := run(t, env)
		if code != 1 || strings.Contains(out, "登録しました") || !strings.Contains(out, "systemd-analyze verify が登録内容の誤りを報告したため、取り消しました") {
			t.Errorf("install = exit %d\n%s", code, out)
		}
		units, _ := filepath.Glob(filepath.Join(dir, "config", "systemd", "user", "*"))
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		if len(units) > 0 || strings.Contains(string(log), "systemctl --user enable") {
			t.Errorf("units %v left, commands:\n%s", units, log)
		}
	})
}

// TestIssue36ScheduleWindowsStub registers Windows tasks through the stub
// schtasks: Japanese, spaces and a trailing backslash are quoted so that
// the task's arguments read back as the workspace; % (expanded by the
// scheduler) and a newline are refused before schtasks runs; a task whose
// arguments read back otherwise is deleted and install fails.
func TestIssue36ScheduleWindowsStub(t *testing.T) {
	const exe = `C:\Program Files\文箱\fumibako.exe`
	tests := []struct {
		name, ws string
		mangle   bool
		want     string // "" = registered; else a part of the error
	}{
		{name: "Japanese and spaces", ws: `C:\Users\山田\共有 フォルダ\文箱`},
		{name: "drive root", ws: `D:\`},
		{name: "trailing backslash", ws: `\\server\share\ws\`},
		{name: "percent", ws: `C:\Users\u\%USERPROFILE%`, want: "には「%」が含まれているため、タスク スケジューラ に正しく書けません"},
		{name: "newline", ws: "C:\\ws\n& calc", want: "には改行が含まれているため"},
		{name: "read back otherwise", ws: `C:\ws`, mangle: true, want: "登録しようとしたものと違っていたため、取り消しました"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			extra := []string{}
			if tt.mangle {
				extra = append(extra, "STUB_SCHTASKS_MANGLE=1")
			}
			dir, env := stubEnv(t, extra...)
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			s := &schedule.Scheduler{GOOS: "windows", Exe: exe, Workspace: tt.ws, Run: schedule.RunCommand}
			err := s.Install(2, 5)
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			_, statErr := os.Stat(filepath.Join(dir, "tr"))
			if tt.want == "" {
				if err != nil || statErr != nil {
					t.Fatalf("install = %v (task kept: %v)\n%s", err, statErr == nil, log)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("install = %v, want %q", err, tt.want)
			}
			if statErr == nil {
				t.Errorf("the task is still registered")
			}
			if !tt.mangle && len(log) > 0 {
				t.Errorf("schtasks ran though refused:\n%s", log)
			}
		})
	}
}

// TestScheduleCrontabRead: a user without a crontab (crontab -l fails
// with "no crontab for …") gets a table of fumibako's line alone; a
// crontab that cannot be read is never replaced.
func TestScheduleCrontabRead(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	for _, tt := range []struct {
		name     string
		unread   bool
		wantCode int
	}{
		{name: "none"},
		{name: "unreadable", unread: true, wantCode: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := stubEnv(t, "STUB_NO_SYSTEMD=1")
			if tt.unread {
				// crontab -l fails for another reason than "no crontab".
				os.WriteFile(filepath.Join(dir, "bin", "crontab"), []byte("#!/bin/sh\nprintf 'crontab %s\\n' \"$*\" >> \"$STUB_DIR/log\"\necho 'crontab: cannot open: Permission denied' >&2\nexit 1\n"), 0o755)
			}
			c := exec.Command(testBinary, "--workspace", ws, "schedule", "install", "--at", "2:05")
			c.Env = append(os.Environ(), env...)
			out, err := c.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			tab, _ := os.ReadFile(filepath.Join(dir, "crontab"))
			if code != tt.wantCode {
				t.Fatalf("install = exit %d\n%s", code, out)
			}
			if tt.unread {
				if strings.Contains(string(log), "crontab -\n") || !strings.Contains(string(out), "Permission denied") {
					t.Errorf("an unreadable crontab was replaced, or the cause not shown:\n%s\n%s", log, out)
				}
				return
			}
			if lines := strings.Split(strings.TrimSuffix(string(tab), "\n"), "\n"); len(lines) != 1 || !strings.HasSuffix(lines[0], schedule.CronMark) {
				t.Errorf("crontab = %q, want fumibako's line alone", tab)
			}
		})
	}
}
