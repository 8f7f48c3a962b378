// Command bench measures fumibako's search against its anchors in one
// run: ripgrep (`rg -F`) over the same extracted text and, with -fts,
// SQLite FTS5 with the trigram tokenizer (the sqlite3 command) over the
// same lines. It prints medians, ratios, the index size per text byte and
// the publish throughput, and checks the targets of DESIGN.md
// "Performance targets".
//
//	go run ./bench/cmd/bench                  # 10 MB corpus
//	go run ./bench/cmd/bench -size 100MB
//	go run ./bench/cmd/bench -size 1GB -runs 5
//
// The corpus is generated once per size and seed into -dir and reused.
// fumibako is timed as a whole process (the fumibako binary built from
// ./cmd/fumibako, or this binary in a child mode that runs the same search
// and prints the hits the same way when that build fails) and in process.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fumibako/fumibako/bench/searchcorpus"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/search"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-child" {
		os.Exit(child(os.Args[2:]))
	}
	size := flag.String("size", "10MB", "extracted text to generate: 10MB, 100MB, 1GB (or a number of bytes)")
	dir := flag.String("dir", "", "corpus folder (default: <temp>/fumibako-bench-<size>)")
	runs := flag.Int("runs", 7, "runs per query and engine (the median is reported)")
	fts := flag.Bool("fts", false, "also build and time SQLite FTS5 (trigram) with the sqlite3 command")
	fumibako := flag.String("fumibako", "", "fumibako binary to time (default: build ./cmd/fumibako)")
	regen := flag.Bool("regen", false, "generate the corpus again even if it exists")
	flag.Parse()
	n, err := searchcorpus.ParseSize(*size)
	if err == nil && n == 0 {
		err = fmt.Errorf("bad size %q", *size)
	}
	if err != nil {
		fatal(err)
	}
	if *dir == "" {
		*dir = filepath.Join(os.TempDir(), "fumibako-bench-"+strings.ToLower(*size))
	}
	c, ratio := prepareCorpus(*dir, *size, n, *regen)

	exe := *fumibako
	if exe == "" {
		exe = buildFumibako(*dir)
	}
	rg, _ := exec.LookPath("rg")
	if rg == "" {
		fmt.Println("rg not found: the ripgrep anchor is skipped (Debian: apt-get install ripgrep)")
	}
	var db string
	if *fts {
		if db, err = buildFTS(c); err != nil {
			fmt.Println("FTS5 anchor skipped:", err)
			db = ""
		}
	}

	fmt.Printf("%-24s %6s %5s %10s %9s %9s %10s %9s %7s %7s", "query", "hits", "cut", "fumibako", "fb cpu", "in-proc", "rg", "rg cpu", "rg/fb", "cpu")
	if db != "" {
		fmt.Printf(" %10s %7s", "fts5", "fts/fb")
	}
	fmt.Println()
	results := timeQueries(c, exe, rg, db, *runs)
	printTargets(results, ratio)
}

// prepareCorpus opens the corpus of n bytes of text in dir, generating and
// publishing it when missing (or with regen), and prints its sizes; ratio
// is the index's bytes per text byte.
func prepareCorpus(dir, size string, n int64, regen bool) (c *searchcorpus.Corpus, ratio float64) {
	spec := searchcorpus.Spec{TextBytes: n}
	var err error
	c = searchcorpus.Open(dir, spec)
	if c == nil || regen {
		fmt.Printf("generating %s of text into %s …\n", size, dir)
		t0 := time.Now()
		if c, err = searchcorpus.Generate(dir, spec); err != nil {
			fatal(err)
		}
		fmt.Printf("  %d files in %d folders, %d lines, %s of text (%.1f s)\n", c.Files, c.Folders, c.Lines, mb(c.TextBytes), time.Since(t0).Seconds())
		fmt.Println("publishing …")
		if err := c.Publish(); err != nil {
			fatal(err)
		}
	}
	sumTime, err := c.Summarize()
	if err != nil {
		fatal(err)
	}
	idx, err := c.IndexBytes()
	if err != nil {
		fatal(err)
	}
	fmt.Printf("corpus: %d files, %d folders, %s of text\n", c.Files, c.Folders, mb(c.TextBytes))
	fmt.Printf("publish: %.1f s, %.1f MB/s, %.0f files/s\n", c.PublishTime.Seconds(),
		float64(c.TextBytes)/1e6/c.PublishTime.Seconds(), float64(c.Files)/c.PublishTime.Seconds())
	if st, err := os.Stat(summary.Path(c.ContentRoot(), searchcorpus.Index)); err == nil {
		fmt.Printf("summary: %s (%.1f%% of the text), brought up to date in %.2f s\n", mb(st.Size()), 100*float64(st.Size())/float64(c.TextBytes), sumTime.Seconds())
	}
	ratio = float64(idx) / float64(c.TextBytes)
	fmt.Printf("index: %s, %.2f bytes per text byte (target ≤ 2)\n\n", mb(idx), ratio)
	return c, ratio
}

// result is the timing of one query by each engine.
type result struct {
	q          searchcorpus.Query
	fb, fbCPU  time.Duration
	rgT, rgCPU time.Duration
	hits       int
	cut        bool
	haveRg     bool
	inproc     time.Duration
	ftsT       time.Duration
	haveFTS    bool
	statLine   string
}

// timeQueries times every query with fumibako (as a process and in
// process), rg and FTS5 when they are there, printing a row each, then
// the search statistics.
func timeQueries(c *searchcorpus.Corpus, exe, rg, db string, runs int) []result {
	var results []result
	for _, q := range searchcorpus.Queries {
		r := result{q: q}
		r.inproc, r.hits, r.cut, r.statLine = timeInProcess(c, q, runs)
		r.fb, r.fbCPU = median(runs, func() (time.Duration, error) { return runFumibako(exe, c, q) })
		if rg != "" {
			r.haveRg = true
			r.rgT, r.rgCPU = median(runs, func() (time.Duration, error) { return runRg(rg, c, q) })
		}
		if db != "" {
			r.haveFTS = true
			r.ftsT, _ = median(runs, func() (time.Duration, error) { return 0, runFTS(db, q) })
		}
		fmt.Printf("%-24s %6d %5v %10s %9s %9s", q.Name, r.hits, r.cut, ms(r.fb), ms(r.fbCPU), ms(r.inproc))
		if r.haveRg {
			fmt.Printf(" %10s %9s %6.1f× %6.1f×", ms(r.rgT), ms(r.rgCPU), ratioOf(r.rgT, r.fb), ratioOf(r.rgCPU, r.fbCPU))
		} else {
			fmt.Printf(" %10s %9s %7s %7s", "-", "-", "-", "-")
		}
		if r.haveFTS {
			fmt.Printf(" %10s %6.1f×", ms(r.ftsT), ratioOf(r.ftsT, r.fb))
		}
		fmt.Println()
		results = append(results, r)
	}
	fmt.Println("\nsearch statistics (in process):")
	for _, r := range results {
		fmt.Printf("  %-24s %s\n", r.q.Name, r.statLine)
	}

	return results
}

// printTargets prints the verdicts on DESIGN.md's performance targets.
func printTargets(results []result, ratio float64) {
	fmt.Println("\ntargets (DESIGN.md \"Performance targets\"; wall time, CPU time in brackets):")
	fmt.Printf("  index size ≤ 2× text: %.2f× %s\n", ratio, verdict(ratio <= 2))
	for _, r := range results {
		switch r.q.Target {
		case "rare":
			if r.haveRg {
				x, xc := ratioOf(r.rgT, r.fb), ratioOf(r.rgCPU, r.fbCPU)
				fmt.Printf("  %-24s ≥ 20× faster than rg -F: %.1f× (%.1f×) %s\n", r.q.Name, x, xc, verdict(x >= 20))
			}
		case "short":
			fmt.Printf("  %-24s ≤ 150 ms with the cap: %s (%s) %s\n", r.q.Name, ms(r.fb), ms(r.fbCPU), verdict(r.fb <= 150*time.Millisecond))
		case "regex":
			if r.haveRg {
				fmt.Printf("  %-24s no slower than rg: %s vs %s (%s vs %s) %s\n", r.q.Name, ms(r.fb), ms(r.rgT), ms(r.fbCPU), ms(r.rgCPU), verdict(r.fb <= r.rgT))
			}
		}
	}
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("\nload average at the end: %s", l)
	}
}

func ratioOf(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT MET"
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

// median runs f (once to warm up, then n times) and returns the median
// wall time and the median CPU time (user + system) that f reports (for
// processes; 0 for in-process runs). CPU time is what the shared machine's
// load disturbs least.
func median(n int, f func() (time.Duration, error)) (wall, cpu time.Duration) {
	if _, err := f(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
	}
	var ws, cs []time.Duration
	for i := 0; i < n; i++ {
		t0 := time.Now()
		c, err := f()
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		ws = append(ws, time.Since(t0))
		cs = append(cs, c)
	}
	slices.Sort(ws)
	slices.Sort(cs)
	return ws[len(ws)/2], cs[len(cs)/2]
}

// cpuOf returns the CPU time of a finished process.
func cpuOf(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func parseQuery(q searchcorpus.Query) *search.Query {
	sq, err := search.Parse(q.Words, search.Options{Regex: q.Regex})
	if err != nil {
		fatal(err)
	}
	return sq
}

// timeInProcess runs the search in this process.
func timeInProcess(c *searchcorpus.Corpus, q searchcorpus.Query, runs int) (time.Duration, int, bool, string) {
	sq := parseQuery(q)
	ix := []search.Index{{Name: searchcorpus.Index}}
	var st search.Stats
	d, _ := median(runs, func() (time.Duration, error) {
		var err error
		st, err = search.Run(context.Background(), c.ContentRoot(), ix, sq, func(search.Hit) bool { return true })
		return 0, err
	})
	line := fmt.Sprintf("folders %d (summary skipped %d), parts %d (n-gram skipped %d), blocks %d (skipped %d), read %s; walk %v open %v filter %v scan %v build %v",
		st.Folders, st.FoldersSkipped, st.Parts, st.PartsSkipped, st.Blocks, st.BlocksSkipped, mb(st.BytesRead),
		st.Walk.Round(10*time.Microsecond), st.Open.Round(10*time.Microsecond), st.Filter.Round(10*time.Microsecond),
		st.Scan.Round(10*time.Microsecond), st.Build.Round(10*time.Microsecond))
	return d, st.Hits, st.Truncated, line
}

// buildFumibako builds ./cmd/fumibako; on failure it returns "" and the
// child mode of this binary stands in.
func buildFumibako(dir string) string {
	exe := filepath.Join(dir, "fumibako")
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/fumibako")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as `make build`
	if root, err := moduleRoot(); err == nil {
		cmd.Dir = root
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Printf("could not build ./cmd/fumibako (%v): timing this binary's search child instead\n%s\n", err, out)
		return ""
	}
	return exe
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("no module")
	}
	return filepath.Dir(gomod), nil
}

// runFumibako runs one search as a whole process, output to /dev/null,
// and returns its CPU time.
func runFumibako(exe string, c *searchcorpus.Corpus, q searchcorpus.Query) (time.Duration, error) {
	var cmd *exec.Cmd
	if exe != "" {
		args := []string{"--workspace", c.Workspace(), "search"}
		if q.Regex {
			args = append(args, "--regex")
		}
		cmd = exec.Command(exe, append(append(args, "--"), q.Words...)...)
	} else {
		self, err := os.Executable()
		if err != nil {
			return 0, err
		}
		args := []string{"-child", c.ContentRoot(), strconv.FormatBool(q.Regex)}
		cmd = exec.Command(self, append(args, q.Words...)...)
	}
	cmd.Stdout = io.Discard
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		err = nil // no hits
	}
	return cpuOf(cmd), err
}

// child runs one search like `fumibako search` does and prints the hits
// in its non-terminal format.
func child(args []string) int {
	if len(args) < 3 {
		return 2
	}
	regex, _ := strconv.ParseBool(args[1])
	q, err := search.Parse(args[2:], search.Options{Regex: regex})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	w := bufio.NewWriter(os.Stdout)
	st, err := search.Run(context.Background(), args[0], []search.Index{{Name: searchcorpus.Index}}, q, func(h search.Hit) bool {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", h.Path(), h.Label, h.Kind, h.Text)
		return true
	})
	w.Flush()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if st.Hits == 0 {
		return 1
	}
	return 0
}

// runRg runs ripgrep over the plain text, output to /dev/null, and
// returns its CPU time.
func runRg(rg string, c *searchcorpus.Corpus, q searchcorpus.Query) (time.Duration, error) {
	args := []string{"--no-config"}
	if q.RgFixed {
		args = append(args, "-F")
	}
	args = append(args, "-e", q.Rg, c.TextRoot())
	cmd := exec.Command(rg, args...)
	cmd.Stdout = io.Discard
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		err = nil
	}
	return cpuOf(cmd), err
}
