package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Usage is what one measured process (and its children) cost.
type Usage struct {
	Wall     time.Duration
	CPU      time.Duration // user + system of the process and its waited-for children (wait4)
	CoordMB  float64       // peak RSS of the process itself (VmHWM, sampled)
	WorkerMB float64       // largest peak RSS of one child process (VmHWM, sampled)
	ReadMB   float64       // bytes read from the disk (rusage inblock × 512)
	Exit     int
}

// measure runs cmd, samples the peak RSS of it and of its descendants from
// /proc every 100 ms, and returns the usage. An exit status in okExits is
// no error.
func measure(cmd *exec.Cmd, okExits ...int) (Usage, error) {
	var u Usage
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return u, err
	}
	done := make(chan struct{})
	sampled := make(chan struct{})
	pid := cmd.Process.Pid
	go func() {
		defer close(sampled)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			u.CoordMB = max(u.CoordMB, hwmMB(pid))
			for _, c := range descendants(pid) {
				u.WorkerMB = max(u.WorkerMB, hwmMB(c))
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	err := cmd.Wait()
	u.Wall = time.Since(t0)
	close(done)
	<-sampled
	if ps := cmd.ProcessState; ps != nil {
		u.CPU = ps.UserTime() + ps.SystemTime()
		u.Exit = ps.ExitCode()
		readMB, maxMB := rusage(ps)
		u.ReadMB = readMB
		// ru_maxrss covers the children too: a floor for a process the
		// sampling missed at its peak.
		if u.CoordMB == 0 && u.WorkerMB == 0 {
			u.CoordMB = maxMB
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		for _, x := range okExits {
			if ee.ExitCode() == x {
				return u, nil
			}
		}
	}
	return u, err
}

// hwmMB returns VmHWM of pid in MB (0 when it is gone).
func hwmMB(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// descendants returns the child processes of pid, recursively.
func descendants(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, t := range tasks {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(data) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
				out = append(out, descendants(c)...)
			}
		}
	}
	return out
}

// dropCaches empties the page cache (root only), then reads the files in
// warm back into it (the binaries: the issue measures with them cached).
func dropCaches(warm ...string) error {
	exec.Command("sync").Run()
	if err := os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0o200); err != nil {
		return fmt.Errorf("drop caches (root only): %w", err)
	}
	for _, w := range warm {
		if data, err := os.ReadFile(w); err == nil {
			_ = data
		}
	}
	return nil
}

// load returns the 1-minute load average.
func load() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(data))[0]
}
