//go:build !windows

package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

func childrenOf(pid int) []int {
	var out []int
	if stats, _ := filepath.Glob("/proc/[0-9]*/stat"); len(stats) > 0 {
		for _, s := range stats {
			if st, ok := procStat(s); ok && st.ppid == pid {
				n, _ := strconv.Atoi(filepath.Base(filepath.Dir(s)))
				out = append(out, n)
			}
		}
		return out
	}
	ps, _ := exec.Command("ps", "-A", "-o", "pid=", "-o", "ppid=").Output()
	for _, line := range strings.Split(string(ps), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[1] == strconv.Itoa(pid) {
			n, _ := strconv.Atoi(f[0])
			out = append(out, n)
		}
	}
	return out
}

type stat struct {
	state string
	ppid  int
}

// procStat reads the state and parent of /proc/<pid>/stat.
func procStat(path string) (stat, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return stat{}, false
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return stat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return stat{}, false
	}
	ppid, err := strconv.Atoi(f[1])
	return stat{state: f[0], ppid: ppid}, err == nil
}

func running(pid int) bool {
	if st, ok := procStat("/proc/" + strconv.Itoa(pid) + "/stat"); ok {
		return st.state != "Z"
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		return false // /proc works and has no such process
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

func threads(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}
