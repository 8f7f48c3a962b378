package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fumibako/fumibako/bench/searchcorpus"
)

// runQueries times every query of the search benchmark as a whole
// fumibako process and rg over the same files: the median of runs warm
// runs, and one run after dropping the page cache (with the binaries read
// back in first), whose rusage inblock says what it read from the disk.
// rg reads every byte of the text cold, so it is timed cold for the first
// query only.
func runQueries(exe, ws, root string, runs int, cold, rgAll bool) []QueryResult {
	rgPath, _ := exec.LookPath("rg")
	if rgPath == "" {
		fmt.Println("rg not found: the ripgrep anchor is skipped (Debian: apt-get install ripgrep)")
	}
	coldWhy := ""
	if !cold {
		coldWhy = "-cold=false"
	} else if err := dropCaches(exe); err != nil {
		coldWhy = err.Error()
		fmt.Println("cold figures skipped:", err)
	}
	fmt.Printf("\n%-24s %6s %6s %9s %9s %9s %9s %9s %9s %9s %7s\n", "query", "hits", "rg", "fb warm", "fb cpu", "fb read", "fb cold", "cold read", "rg warm", "rg cold", "rg/fb")
	var out []QueryResult
	for i, q := range searchcorpus.Queries {
		rg := rgPath
		if !rgAll && i > 0 {
			rg = "" // -rg-all=false: rg times the first query only
		}
		r := QueryResult{Name: q.Name, ColdDisabled: coldWhy}
		fbCmd := func() *exec.Cmd {
			args := []string{"--workspace", ws, "search"}
			if q.Regex {
				args = append(args, "--regex")
			}
			return exec.Command(exe, append(append(args, "--"), q.Words...)...)
		}
		rgCmd := func() *exec.Cmd {
			args := []string{"--no-config"}
			if q.RgFixed {
				args = append(args, "-F")
			}
			return exec.Command(rg, append(args, "-e", q.Rg, root)...)
		}
		if coldWhy == "" {
			dropCaches(exe, rg)
			r.Cold, _ = lines(fbCmd(), nil)
			if i == 0 && rg != "" {
				dropCaches(exe, rg)
				u, _ := lines(rgCmd(), nil)
				r.RgCold = &u
			}
		}
		r.Warm = medianOf(runs, func() Usage { u, _ := lines(fbCmd(), &r.Hits); return u })
		if rg != "" {
			r.RgWarm = medianOf(runs, func() Usage { u, _ := lines(rgCmd(), &r.RgHits); return u })
		}
		r.Load = load()
		rgCold := "-"
		if r.RgCold != nil {
			rgCold = msStr(r.RgCold.Wall)
		}
		fmt.Printf("%-24s %6d %6d %9s %9s %8.2fM %9s %8.2fM %9s %9s %6.1f×  (load %s)\n", q.Name, r.Hits, r.RgHits,
			msStr(r.Warm.Wall), msStr(r.Warm.CPU), r.Warm.ReadMB, msStr(r.Cold.Wall), r.Cold.ReadMB,
			msStr(r.RgWarm.Wall), rgCold, ratio(r.RgWarm.Wall, r.Warm.Wall), r.Load)
		out = append(out, r)
	}
	return out
}

// lines runs cmd, counting its output lines into n when n is not nil.
func lines(cmd *exec.Cmd, n *int) (Usage, error) {
	var buf countWriter
	cmd.Stdout = &buf
	cmd.Stderr = io.Discard
	u, err := measure(cmd, 1)
	if n != nil {
		*n = buf.lines
	}
	return u, err
}

type countWriter struct{ lines int }

func (c *countWriter) Write(p []byte) (int, error) {
	c.lines += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// medianOf runs f once to warm up, then n times, and returns the run of
// median wall time (with its CPU time and reads).
func medianOf(n int, f func() Usage) Usage {
	f()
	us := make([]Usage, max(n, 1))
	for i := range us {
		us[i] = f()
	}
	slices.SortFunc(us, func(a, b Usage) int { return int(a.Wall - b.Wall) })
	return us[len(us)/2]
}

// recollBuild builds a Recoll index of root from nothing in confDir and
// returns what recollindex cost.
func recollBuild(confDir, root string) (Usage, error) {
	exe, err := exec.LookPath("recollindex")
	if err != nil {
		return Usage{}, fmt.Errorf("recollindex not found (Debian: apt-get install recollcmd)")
	}
	if err := os.RemoveAll(confDir); err != nil {
		return Usage{}, err
	}
	if err := os.MkdirAll(confDir, 0o755); err != nil {
		return Usage{}, err
	}
	// Every file of the tree is text: .tsv and .log are not in Recoll's
	// default mime map, so they are mapped to text/plain as fumibako
	// reads them.
	conf := "topdirs = " + root + "\nloglevel = 1\n"
	mime := "[index]\n.tsv = text/plain\n.log = text/plain\n.md = text/plain\n.txt = text/plain\n"
	if err := os.WriteFile(filepath.Join(confDir, "recoll.conf"), []byte(conf), 0o644); err != nil {
		return Usage{}, err
	}
	if err := os.WriteFile(filepath.Join(confDir, "mimemap"), []byte(mime), 0o644); err != nil {
		return Usage{}, err
	}
	cmd := exec.Command(exe, "-c", confDir, "-z")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	u, err := measure(cmd)
	if err != nil {
		return u, fmt.Errorf("recollindex: %v: %s", err, lastLines(stderr.String(), 5))
	}
	return u, nil
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

func msStr(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}
