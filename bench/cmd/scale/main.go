// Command scale is the scale benchmark (issue 21): it indexes a generated
// tree of text files from nothing with the fumibako binary, reruns it
// unchanged, changes 1 % of the files and reruns, then times the query set
// of the search benchmark (bench/searchcorpus.Queries) and `rg -F` over the
// same files, warm and after dropping the page cache (root only), then
// types queries into the web UI (`fumibako serve`) in headless
// chromium, timing each keystroke to its first hit on screen (web.go). It
// prints each phase's wall and CPU time, the peak RSS of the coordinator
// and of its workers, the index and summary size, and the bytes each query
// read from the disk; every run's figures go into a results file, so that
// the table shows the sizes measured earlier beside this one.
//
//	go run ./bench/cmd/scale -size 100MB    # 2,000 files in 40 folders
//	go run ./bench/cmd/scale -size 1GB      # 20,000 files in 400 folders
//	go run ./bench/cmd/scale -size 10GB     # 200,000 files in 4,000 folders
//	go run ./bench/cmd/scale -size 100MB -file-bytes 20KB -per-folder 25 -gen-only  # issue 35: 5,000 files of 4–36 KB
//	go run ./bench/cmd/scale -size 90MB -file-bytes 4.5KB -per-folder 40 -gen-only  # issue 35: 20,000 files of 1–8 KB
//	go run ./bench/cmd/scale -table         # the table of the results file only
//	go run ./bench/cmd/scale -size 1GB -search-only -queries=false   # the web phase alone
//	go run ./bench/cmd/scale -size 10GB -change 2   # rewrite 1 % of the tree (0: back), to time
//	                                                # `fumibako index` on its workspace by hand
//
// The tree is generated once per size into -dir/<size>/tree (stamped with
// the generator's version and spec, bench/searchcorpus.TreeSpec) and
// reused; -regen makes it again. The workspace -dir/<size>/ws is made
// afresh each run. With recollindex installed (Debian: recollcmd), the
// full build is compared with Recoll's over the same files at sizes up to
// -recoll-max (-recoll-only adds it to a size measured before).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fumibako/fumibako/bench/searchcorpus"
	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
)

// Result is one run at one size, as kept in the results file.
type Result struct {
	Size      string
	When      string
	Files     int
	Folders   int
	TextBytes int64
	GenTime   time.Duration `json:",omitempty"` // when the tree was generated in this run
	Partial   string        `json:",omitempty"` // what a partial result covers
	Phases    map[string]Phase
	IndexMB   float64 // body index files (manifests and parts)
	SummaryMB float64
	WorkMB    float64 // everything under work/ (ingest list, journal, logs, index)
	Queries   []QueryResult
	Web       *WebResult `json:",omitempty"` // keystroke to first hit in the web UI
}

// Phase is one measured process, with the machine's load when it ended.
type Phase struct {
	Usage
	Load string
}

// QueryResult is one query of the query set.
type QueryResult struct {
	Name         string
	Hits         int // lines fumibako printed
	RgHits       int // lines rg printed
	Warm, Cold   Usage
	RgWarm       Usage
	RgCold       *Usage `json:",omitempty"`
	Load         string
	ColdDisabled string `json:",omitempty"` // why there is no cold figure
}

const (
	phaseBuild     = "build"
	phaseUnchanged = "unchanged rerun"
	phaseChanged   = "1 % changed"
	phaseRecoll    = "recoll build"
)

func main() {
	size := flag.String("size", "100MB", "text to generate: 100MB, 1GB, 10GB (or bytes)")
	dir := flag.String("dir", "/work/scale", "folder of the trees, workspaces and results file")
	runs := flag.Int("runs", 5, "warm runs per query (the median is reported)")
	regen := flag.Bool("regen", false, "generate the tree again even if it is stamped")
	recollMax := flag.String("recoll-max", "1GB", "largest size at which Recoll's full build is measured (0: never)")
	cold := flag.Bool("cold", true, "also time each query after dropping the page cache (needs root)")
	tableOnly := flag.Bool("table", false, "print the table of the results file and exit")
	genOnly := flag.Bool("gen-only", false, "generate (or find) the tree and exit")
	rgAll := flag.Bool("rg-all", true, "time rg for every query (false: the first only; rg reads all the text each time)")
	note := flag.String("note", "", "with -search-only: what the stopped build covered (without it the result keeps its earlier note)")
	searchOnly := flag.Bool("search-only", false, "keep the workspace (one a stopped build left) and time the queries only")
	queries := flag.Bool("queries", true, "time the query set (false: the figures measured before stay)")
	web := flag.Bool("web", true, "time keystroke to first hit in the web UI with headless chromium (skipped when it is not found)")
	recollOnly := flag.Bool("recoll-only", false, "measure only Recoll's full build and add it to this size's results")
	fb := flag.String("fumibako", "", "fumibako binary (default: build ./cmd/fumibako into -dir)")
	fileBytes := flag.String("file-bytes", "", "mean text per file (e.g. 20KB; default 50KB): files hold 0.2–1.8× the mean (issue 35's small-file trees)")
	perFolder := flag.Int("per-folder", 0, "mean files per folder (default 50)")
	change := flag.Int("change", -1, "rewrite 1 % of the tree's files with text variant N (0: back as generated) and exit, to time a 1 % change by hand with two binaries")
	flag.Parse()
	results := filepath.Join(*dir, "results.json")
	if *tableOnly {
		printTable(os.Stdout, readResults(results))
		return
	}
	spec, key, err := treeSpec(*size, *fileBytes, *perFolder)
	if err != nil {
		fatal(err)
	}
	n := spec.TextBytes
	base := filepath.Join(*dir, strings.ToLower(key))
	res := Result{Size: key, When: time.Now().UTC().Format(time.RFC3339), Phases: map[string]Phase{}}
	tree := openTree(base, spec, *regen, &res)
	if *genOnly {
		return
	}
	if *change >= 0 {
		if _, err := tree.ChangeFiles(100, uint64(*change)); err != nil {
			fatal(err)
		}
		if err := markChanged(tree, *change > 0); err != nil && *change > 0 {
			fatal(err)
		}
		return
	}
	if *recollOnly {
		addRecoll(results, key, base, tree)
		return
	}
	fmt.Printf("tree: %d files in %d folders, %.1f MB of text (load %s)\n", tree.Files, tree.Folders, float64(tree.TextBytes)/1e6, load())

	exe := *fb
	if exe == "" {
		exe = filepath.Join(*dir, "fumibako")
		if err := build(exe); err != nil {
			fatal(err)
		}
	}
	ws := filepath.Join(base, "ws")
	if *searchOnly {
		// The workspace as a stopped run left it: its phases as saved.
		prev := readResults(results)[key]
		maps.Copy(res.Phases, prev.Phases)
		res.Partial = prev.Partial
		if *note != "" {
			res.Partial = "search over the workspace a stopped build left: " + *note
		}
	} else {
		if err := freshWorkspace(ws, tree.Root()); err != nil {
			fatal(err)
		}
		indexPhases(exe, ws, base, results, tree, &res)
	}
	res.IndexMB, res.SummaryMB, res.WorkMB = indexSizes(ws, "scale")
	fmt.Printf("index %.1f MB (%.2f× the text), summary %.2f MB, work %.1f MB\n", res.IndexMB, res.IndexMB*1e6/float64(tree.TextBytes), res.SummaryMB, res.WorkMB)

	if *queries {
		res.Queries = runQueries(exe, ws, tree.Root(), *runs, *cold, *rgAll)
	} else {
		res.Queries = readResults(results)[key].Queries
	}
	if *web {
		res.Web = runWeb(exe, ws, filepath.Join(base, "serve.log"))
	}
	if lim, err := searchcorpus.ParseSize(*recollMax); err == nil && n <= lim {
		if u, err := recollBuild(filepath.Join(base, "recoll"), tree.Root()); err != nil {
			fmt.Println("Recoll anchor skipped:", err)
		} else {
			res.Phases[phaseRecoll] = Phase{Usage: u, Load: load()}
			fmt.Printf("%-16s %8.1f s wall %8.1f s CPU  (load %s)\n", phaseRecoll, u.Wall.Seconds(), u.CPU.Seconds(), load())
		}
	}
	if err := restoreTree(tree); err != nil {
		fatal(err)
	}
	all := readResults(results)
	keepEarlier(&res, all[key])
	writeResults(results, all, res)
}

// treeSpec is the tree of the flags and its results key: the size
// (100MB), and for another file size or folder size those too
// (100MB-20000-25per), so that each shape is a result of its own.
func treeSpec(size, fileBytes string, perFolder int) (searchcorpus.TreeSpec, string, error) {
	n, err := searchcorpus.ParseSize(size)
	if err != nil {
		return searchcorpus.TreeSpec{}, "", err
	}
	spec := searchcorpus.TreeSpec{TextBytes: n, FilesPerFolder: perFolder}
	key := sizeName(n)
	if fileBytes != "" {
		if spec.MeanFileBytes, err = searchcorpus.ParseSize(fileBytes); err != nil || spec.MeanFileBytes <= 0 {
			return spec, "", fmt.Errorf("bad -file-bytes %q", fileBytes)
		}
		key += "-" + sizeName(spec.MeanFileBytes)
	}
	if perFolder > 0 {
		key += fmt.Sprintf("-%dper", perFolder)
	}
	return spec, key, nil
}

// openTree finds the tree of spec under base, or generates it (again with
// regen), with its changed files written back; its figures go into res.
func openTree(base string, spec searchcorpus.TreeSpec, regen bool, res *Result) *searchcorpus.Tree {
	tree := searchcorpus.OpenTree(filepath.Join(base, "tree"), spec)
	if tree == nil || regen {
		fmt.Printf("generating %s of text into %s …\n", res.Size, filepath.Join(base, "tree"))
		t0 := time.Now()
		var err error
		tree, err = searchcorpus.GenerateTree(filepath.Join(base, "tree"), spec, func(done, total int) {
			if done%20000 == 0 {
				fmt.Printf("  %d/%d files\n", done, total)
			}
		})
		if err != nil {
			fatal(err)
		}
		res.GenTime = time.Since(t0)
	}
	if err := restoreTree(tree); err != nil {
		fatal(err)
	}
	res.Files, res.Folders, res.TextBytes = tree.Files, tree.Folders, tree.TextBytes
	return tree
}

// addRecoll measures Recoll's full build and adds it to the results of a
// size measured before (-recoll-only).
func addRecoll(results, key, base string, tree *searchcorpus.Tree) {
	all := readResults(results)
	prev, ok := all[key]
	if !ok {
		fatal(fmt.Errorf("no results at %s yet: run without -recoll-only first", key))
	}
	u, err := recollBuild(filepath.Join(base, "recoll"), tree.Root())
	if err != nil {
		fatal(err)
	}
	prev.Phases[phaseRecoll] = Phase{Usage: u, Load: load()}
	writeResults(results, all, prev)
}

// indexPhases times the build from nothing, the unchanged rerun and the
// rerun after 1 % of the files changed, saving each as it ends.
func indexPhases(exe, ws, base, results string, tree *searchcorpus.Tree, res *Result) {
	index := func(name string) {
		log, err := os.Create(filepath.Join(base, "index-"+strings.ReplaceAll(name, " ", "_")+".log"))
		if err != nil {
			fatal(err)
		}
		defer log.Close()
		cmd := exec.Command(exe, "--workspace", ws, "index", "--plain")
		cmd.Stdout, cmd.Stderr = log, log
		u, err := measure(cmd)
		if err != nil {
			fatal(fmt.Errorf("%s: %v (see %s)", name, err, log.Name()))
		}
		res.Phases[name] = Phase{Usage: u, Load: load()}
		saveResults(results, *res) // a run stopped later keeps what it measured
		fmt.Printf("%-16s %8.1f s wall %8.1f s CPU  coordinator %6.0f MB  worker %6.0f MB  (load %s)\n",
			name, u.Wall.Seconds(), u.CPU.Seconds(), u.CoordMB, u.WorkerMB, load())
	}
	index(phaseBuild)
	index(phaseUnchanged)
	if err := markChanged(tree, true); err != nil {
		fatal(err)
	}
	changed, err := tree.ChangeFiles(100, 1)
	if err != nil {
		fatal(err)
	}
	fmt.Printf("changed %d files (1 %%)\n", len(changed))
	index(phaseChanged)
}

// keepEarlier keeps in res the figures of prev (the same size, measured
// before) that this run did not measure: Recoll's build is slow and the
// web phase needs chromium; their load and time say when.
func keepEarlier(res *Result, prev Result) {
	if _, ok := res.Phases[phaseRecoll]; !ok {
		if p, ok := prev.Phases[phaseRecoll]; ok {
			res.Phases[phaseRecoll] = p
		}
	}
	if res.Web == nil {
		res.Web = prev.Web
	}
}

// saveResults puts the figures measured so far into the results file.
func saveResults(path string, res Result) {
	all := readResults(path)
	keepEarlier(&res, all[res.Size])
	all[res.Size] = res
	data, _ := json.MarshalIndent(all, "", "  ")
	os.WriteFile(path, data, 0o644)
}

// writeResults puts res into the results file and prints the table.
func writeResults(path string, all map[string]Result, res Result) {
	all[res.Size] = res
	data, _ := json.MarshalIndent(all, "", "  ")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fatal(err)
	}
	fmt.Println()
	printTable(os.Stdout, all)
}

// changedMark is the file in the tree's folder that says ChangeFiles left
// files changed (a run stopped before it wrote them back).
func changedMark(t *searchcorpus.Tree) string { return filepath.Join(t.Dir, "changed") }

func markChanged(t *searchcorpus.Tree, on bool) error {
	if on {
		return os.WriteFile(changedMark(t), nil, 0o644)
	}
	return os.Remove(changedMark(t))
}

// restoreTree writes the changed files back as generated.
func restoreTree(t *searchcorpus.Tree) error {
	if _, err := os.Stat(changedMark(t)); err != nil {
		return nil
	}
	if _, err := t.ChangeFiles(100, 0); err != nil {
		return err
	}
	return markChanged(t, false)
}

// freshWorkspace makes an empty workspace with one crawl root, "scale".
func freshWorkspace(ws, root string) error {
	if err := os.RemoveAll(ws); err != nil {
		return err
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return err
	}
	settings, _ := json.Marshal(map[string]any{"targetFolders": []map[string]string{{"name": "scale", "path": root}}})
	return os.WriteFile(filepath.Join(ws, "settings.json"), settings, 0o644)
}

// indexSizes returns the body index (manifests and parts), the summary and
// all of work/, in MB.
func indexSizes(ws, index string) (idx, sum, work float64) {
	content := filepath.Join(ws, "work", "store", "content")
	filepath.WalkDir(filepath.Join(ws, "work"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		st, err := d.Info()
		if err != nil {
			return nil
		}
		mb := float64(st.Size()) / 1e6
		work += mb
		if strings.HasPrefix(d.Name(), format.ManifestName) {
			idx += mb
		}
		return nil
	})
	if st, err := os.Stat(summary.Path(content, index)); err == nil {
		sum = float64(st.Size()) / 1e6
	}
	return idx, sum, work
}

// build builds ./cmd/fumibako as `make build` does.
func build(exe string) error {
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/fumibako")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build ./cmd/fumibako: %v\n%s", err, out)
	}
	return nil
}

func readResults(path string) map[string]Result {
	all := map[string]Result{}
	if data, err := os.ReadFile(path); err == nil {
		json.Unmarshal(data, &all)
	}
	return all
}

// sizeName is the results file's key of a size: 100MB, 1GB, 10GB.
func sizeName(n int64) string {
	switch {
	case n >= 1e9 && n%1e9 == 0:
		return fmt.Sprintf("%dGB", n/1e9)
	case n >= 1e6 && n%1e6 == 0:
		return fmt.Sprintf("%dMB", n/1e6)
	}
	return strconv.FormatInt(n, 10)
}

// sizeOrder sorts result keys by size.
func sizeOrder(all map[string]Result) []string {
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		x, _ := searchcorpus.ParseSize(a)
		y, _ := searchcorpus.ParseSize(b)
		return int(min(max(x-y, -1), 1))
	})
	return keys
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "scale:", err)
	os.Exit(1)
}
