// Package watch measures `fumibako watch` (DESIGN.md targets: change to
// searchable p50 ≤ 2 s with the default debounce; idle CPU ~0, RSS ≤ 100 MB)
// over a root of generated text files (FUMIBAKO_BENCH_WATCH_FILES, default
// 100,000, in folders of 1,000):
//
//	go test ./bench/watch -bench . -benchtime 1x -timeout 60m
//
// Linux only (CPU and RSS come from /proc).
package watch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/testcorpus"
)

func BenchmarkWatch(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc")
	}
	n := 100000
	if v, err := strconv.Atoi(os.Getenv("FUMIBAKO_BENCH_WATCH_FILES")); err == nil && v > 0 {
		n = v
	}
	base := b.TempDir()
	exe := filepath.Join(base, "fumibako")
	if out, err := testcorpus.GoBuild("build", "-o", exe, "../../cmd/fumibako"); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	ws, root := filepath.Join(base, "ws"), filepath.Join(base, "root")
	for i := range n {
		p := filepath.Join(root, fmt.Sprintf("d%03d", i/1000), fmt.Sprintf("f%06d.txt", i))
		if i%1000 == 0 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		os.WriteFile(p, []byte(fmt.Sprintf("見積 %d 番 word%06dq\n", i, i)), 0o644)
	}
	run := func(args ...string) string {
		out, err := exec.Command(exe, append([]string{"--workspace", ws}, args...)...).CombinedOutput()
		if err != nil {
			b.Fatalf("fumibako %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("folder", "add", root)
	t0 := time.Now()
	run("index", "--plain")
	b.Logf("full index of %d files: %v", n, time.Since(t0).Round(time.Millisecond))

	t1 := time.Now()
	w := exec.Command(exe, "--workspace", ws, "watch")
	var wout bytes.Buffer
	w.Stdout, w.Stderr = &wout, &wout
	if err := w.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { w.Process.Signal(os.Interrupt); w.Wait() }()
	state := filepath.Join(ws, "work", "watch.json")
	waitIdle := func() {
		for end := time.Now().Add(10 * time.Minute); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if data, _ := os.ReadFile(state); bytes.Contains(data, []byte(`"doing": "変更を待っています"`)) {
				return
			}
		}
		b.Fatalf("watcher never idle:\n%s", wout.String())
	}
	waitIdle()
	b.Logf("watcher start (full rescan of %d files): %v", n, time.Since(t1).Round(time.Millisecond))

	// Idle: CPU ticks and RSS over a quiet period.
	quiet := 20 * time.Second
	c0 := cpuTicks(b, w.Process.Pid)
	time.Sleep(quiet)
	c1 := cpuTicks(b, w.Process.Pid)
	rss := rssKB(b, w.Process.Pid)
	idleCPU := float64(c1-c0) / 100 / quiet.Seconds() * 100 // % of one core (USER_HZ 100)
	b.Logf("idle: CPU %.2f%% of one core over %v, RSS %d MB", idleCPU, quiet, rss/1024)

	// Change to searchable: edit one file, poll search for its new token.
	const edits = 15
	var lat []time.Duration
	for i := range edits {
		tok := fmt.Sprintf("edit%02dz%d", i, time.Now().UnixNano()%100000)
		d := (i * 37) % max(n/1000, 1) // edits spread over the folders
		p := filepath.Join(root, fmt.Sprintf("d%03d", d), fmt.Sprintf("f%06d.txt", min(d*1000+i, n-1)))
		start := time.Now()
		if err := os.WriteFile(p, []byte("変更 "+tok+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			out, _ := exec.Command(exe, "--workspace", ws, "search", tok).Output()
			if strings.Contains(string(out), tok) {
				break
			}
			if time.Since(start) > 2*time.Minute {
				b.Fatalf("edit %d not searchable after 2 min:\n%s", i, wout.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		lat = append(lat, time.Since(start))
		waitIdle()
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p50, p90 := lat[len(lat)/2], lat[len(lat)*9/10]
	b.Logf("change to searchable over %d edits: p50 %v, p90 %v, max %v (target p50 ≤ 2 s)", edits,
		p50.Round(time.Millisecond), p90.Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	b.ReportMetric(p50.Seconds(), "p50-s")
	b.ReportMetric(p90.Seconds(), "p90-s")
	b.ReportMetric(idleCPU, "idle-cpu-%")
	b.ReportMetric(float64(rss)/1024, "idle-rss-MB")
}

// cpuTicks is utime+stime of a process (/proc/<pid>/stat, USER_HZ ticks).
func cpuTicks(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

func rssKB(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
