// Command xlsxagree is the agreement report of issue 4: it compares the
// cell display values fumibako extracts from Excel workbooks with
// LibreOffice's CSV export of the same sheets, cell by cell, over a corpus.
//
// Usage (from the repository root):
//
//	go run ./tools/xlsxagree [-corpus DIR] [-md] [-cache DIR] [-timeout 60s] [-batch 10] [-kinds 20] [-diffs 0]
//
//	-corpus DIR    folder searched recursively (default ../shared/corpus
//	               relative to the repository root)
//	-md            markdown tables instead of plain text
//	-cache DIR     keep LibreOffice's exports there, keyed by the file's
//	               SHA-256, so that a second run only reads (default: none)
//	-timeout D     limit per file for LibreOffice and for fumibako (60s)
//	-batch N       workbooks per LibreOffice run (10; 1 for one run per file)
//	-kinds N       how many kinds of difference to list (20)
//	-diffs N       list up to N differing cells of each file (0)
//	-soffice PATH  LibreOffice's soffice (default: found like fumibako does)
//
// The report goes to stdout, progress to stderr. The first table covers
// .xlsx and .xlsm, the second .xls and .xlsb; then the overall rate, the
// ten worst files and the most frequent kinds of difference, each with an
// example cell.
//
// fumibako's side is extract.Extract, the public extraction API: the sheet
// places are those without a "[…]" suffix (sheet names cannot hold
// brackets); line N is sheet row N, cells are separated by TAB, a cell
// holding a newline, `"` or TAB is wrapped in `"…"` with `""` inside, and
// in-cell newlines are U+2028 (reference/extraction.md §5.3).
//
// LibreOffice's side (7.2 or later) is its CSV export, run with a private
// profile created before the first file, whose locale setting is ja-JP
// (LibreOffice formats the locale-bound built-in formats, dates among
// them, in that locale; the filter's language token only affects
// import), and on Linux with LC_ALL=C.UTF-8 so that sheet names reach
// the output file names as UTF-8 even where no Japanese system locale is
// installed:
//
//	soffice --headless --norestore -env:UserInstallation=file://<tmp>/profile
//	  --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1041,true,true,true,false,false,-1'
//	  --outdir <tmp> <file>…
//
// The tokens (LibreOffice help, "CSV Filter Options"): 1 separator 44
// (comma), 2 text delimiter 34 ("), 3 character set 76 (UTF-8), 4 first
// line 1, 5 column formats (import only), 6 language 1041 (ja-JP), 7
// quote all text cells, 8 detect special numbers (import only), 9 save
// cell contents as shown (the display values; false gives the raw numbers
// and dates in the input format: 1599.99 for "1,599.99"), 10 export
// formulas off, 11 remove spaces off (import only), 12 sheet -1: every
// sheet into its own <name>-<Sheet>.csv, announced on stdout as "Writing
// sheet <Sheet> -> <path>".
//
// One soffice run converts up to -batch workbooks and may take -timeout
// per workbook; one that fails or outlives that is killed with its
// process group, and the workbooks it left without output are converted
// again one per run under -timeout each, so that a file which hangs or
// crashes LibreOffice gets its own error. With -batch 1 every workbook
// has its own run and its own timeout.
//
// Comparison, per sheet: a cell counts when either side is non-empty
// (so trailing empty cells and rows, and LibreOffice's padding commas,
// do not count); it agrees when both texts are equal after CRLF and CR
// became LF on both sides and U+2028 became LF on fumibako's. Hidden and
// very hidden sheets (read from xl/workbook.xml, the BIFF BoundSheet
// records or xl/workbook.bin) are skipped by fumibako by design and are
// excluded here, though LibreOffice exports them; the report says how
// many. A visible sheet fumibako has no place for (a chart sheet, or an
// empty one) compares as empty; when exactly one sheet on each side is
// left unmatched by name (a workbook read as text has one sheet named
// after whatever file was opened), the two are compared. Files that
// fumibako or LibreOffice cannot read are listed with the reason and
// left out of the rates.
//
// Kinds of difference (kinds.go) are named from the two texts and from
// what the workbook says of the cell (the formula cells and pivot tables
// of .xlsx, the Formula records of .xls, the BrtFmla* records of .xlsb):
// first differences of display of the same value (General's exponent
// form and 11-character limit, rounding, zero padding, month and weekday
// names, AM/PM, booleans shown as 1/0, spacing); then, on a sheet with a
// pivot table, the table LibreOffice rebuilt; then a formula whose result
// LibreOffice recalculated differently from the value cached in the file
// (fumibako recalculates nothing); then values that differ, by their
// shapes ("«0.0»": digits, letters, punctuation).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/extract/libreoffice"
)

// config is what one run compares and how it reports.
type config struct {
	corpus   string
	md       bool
	cache    string // LibreOffice export cache; "" for none
	timeout  time.Duration
	batch    int // files per soffice run
	soffice  string
	kinds    int
	diffs    int       // differing cells listed per file
	progress io.Writer // one line per file; nil for none
}

func main() {
	var cfg config
	flag.StringVar(&cfg.corpus, "corpus", "", "corpus folder (default ../shared/corpus relative to the repository root)")
	flag.BoolVar(&cfg.md, "md", false, "markdown tables")
	flag.StringVar(&cfg.cache, "cache", "", "folder that keeps LibreOffice's exports between runs")
	flag.DurationVar(&cfg.timeout, "timeout", 60*time.Second, "limit per file")
	flag.IntVar(&cfg.batch, "batch", 10, "files per LibreOffice run (1: one run per file)")
	flag.StringVar(&cfg.soffice, "soffice", "", "LibreOffice's soffice (default: searched)")
	flag.IntVar(&cfg.kinds, "kinds", 20, "kinds of difference to list")
	flag.IntVar(&cfg.diffs, "diffs", 0, "differing cells to list per file")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: xlsxagree [-corpus DIR] [-md] [-cache DIR] [-timeout D] [-batch N] [-kinds N] [-diffs N] [-soffice PATH]")
		os.Exit(2)
	}
	if cfg.corpus == "" {
		root, err := repoRoot()
		if err != nil {
			fmt.Fprintln(os.Stderr, "xlsxagree:", err)
			os.Exit(2)
		}
		cfg.corpus = filepath.Join(root, "..", "shared", "corpus")
	}
	cfg.progress = os.Stderr
	if err := run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "xlsxagree:", err)
		os.Exit(1)
	}
}

// repoRoot is the nearest folder above the working directory holding
// go.mod.
func repoRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("no go.mod above the working directory: pass -corpus")
		}
		d = up
	}
}

// Groups of the report, one table each.
const (
	groupOOXML  = iota // .xlsx .xlsm
	groupLegacy        // .xls .xlsb
)

var groupTitle = [...]string{".xlsx / .xlsm", ".xls / .xlsb"}

// input is one workbook of the corpus.
type input struct {
	path, rel string
	group     int
}

// corpusFiles lists the workbooks under dir in path order; Office owner
// files (~$…) are left out.
func corpusFiles(dir string) ([]input, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("corpus %s: not a folder", dir)
	}
	var in []input
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), "~$") {
			return nil
		}
		g := -1
		switch strings.ToLower(filepath.Ext(p)) {
		case ".xlsx", ".xlsm":
			g = groupOOXML
		case ".xls", ".xlsb":
			g = groupLegacy
		}
		if g >= 0 {
			rel, _ := filepath.Rel(dir, p)
			in = append(in, input{path: p, rel: filepath.ToSlash(rel), group: g})
		}
		return nil
	})
	sort.Slice(in, func(i, j int) bool { return in[i].rel < in[j].rel })
	return in, err
}

// run compares every workbook of cfg.corpus and writes the report to w.
func run(ctx context.Context, cfg config, w io.Writer) error {
	files, err := corpusFiles(cfg.corpus)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no .xlsx, .xlsm, .xls or .xlsb under %s", cfg.corpus)
	}
	if cfg.soffice == "" {
		if cfg.soffice, err = libreoffice.Find(); err != nil {
			return err
		}
	}
	work, err := os.MkdirTemp("", "xlsxagree-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	lo, err := newExporter(ctx, cfg.soffice, work, cfg.cache, cfg.timeout)
	if err != nil {
		return err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	exports, err := lo.exportAll(ctx, paths, cfg.batch, cfg.progress)
	if err != nil {
		return err
	}
	rep := newReport(lo.version, cfg.corpus, cfg.diffs)
	for i, f := range files {
		if cfg.progress != nil {
			fmt.Fprintf(cfg.progress, "[%d/%d] %s\n", i+1, len(files), f.rel)
		}
		rep.add(compareFile(ctx, cfg, exports[f.path], work, f))
	}
	if cfg.md {
		return rep.writeMarkdown(w, cfg.kinds)
	}
	return rep.writeText(w, cfg.kinds)
}
