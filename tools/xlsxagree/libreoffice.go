package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/extract/libreoffice"
)

// csvFilter is the CSV export filter with its options (see the package
// comment for each token).
const csvFilter = "csv:Text - txt - csv (StarCalc):44,34,76,1,,1041,true,true,true,false,false,-1"

// loLocale is LibreOffice's locale setting, written into the private
// profile as fumibako's conversions do, so that the locale-bound built-in
// formats (dates among them) show as in a Japanese Excel. The filter's
// language token only affects import.
const loLocale = libreoffice.Locale

// profileTimeout bounds the creation of the private profile, which takes
// far longer than one conversion.
const profileTimeout = 3 * time.Minute

// manifestName is the file beside a cached export that lists its sheets
// in workbook order, one "<sheet>\t<csv file name>" per line.
const manifestName = "sheets.tsv"

// exporter converts workbooks to one CSV per sheet with LibreOffice.
type exporter struct {
	soffice string
	version string // "LibreOffice 7.4.7.2 …"
	profile string // -env:UserInstallation value
	work    string // private folder for outputs
	cache   string // "" for none
	timeout time.Duration
	n       int // conversions so far, names output folders
}

// loSheet is one exported sheet.
type loSheet struct {
	name string
	csv  string // path of its CSV
}

// newExporter checks LibreOffice's version (7.2 brought the sheet token
// -1); the private profile under work is created before the first
// conversion.
func newExporter(ctx context.Context, soffice, work, cache string, timeout time.Duration) (*exporter, error) {
	e := &exporter{soffice: soffice, work: work, cache: cache, timeout: timeout}
	out, err := exec.CommandContext(ctx, soffice, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", soffice, err)
	}
	e.version = strings.TrimSpace(string(out))
	major, minor, ok := loVersion(e.version)
	if !ok {
		return nil, fmt.Errorf("%s --version: unrecognised %q", soffice, e.version)
	}
	if major < 7 || major == 7 && minor < 2 {
		return nil, fmt.Errorf("%s: LibreOffice 7.2 or later is needed to export every sheet to CSV (sheet token -1)", e.version)
	}
	if cache != "" {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// makeProfile creates the private profile and sets its locale.
func (e *exporter) makeProfile(ctx context.Context) error {
	dir := filepath.Join(e.work, "profile")
	e.profile = "-env:UserInstallation=" + (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
	ctx, cancel := context.WithTimeout(ctx, profileTimeout)
	defer cancel()
	if _, err := e.soffice1(ctx, "--terminate_after_init"); err != nil {
		return fmt.Errorf("creating the LibreOffice profile: %w", err)
	}
	if err := libreoffice.EnsureLocale(dir); err != nil {
		return fmt.Errorf("setting LibreOffice's locale: %w", err)
	}
	return nil
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)`)

// loVersion reads major and minor from soffice --version's line.
func loVersion(s string) (major, minor int, ok bool) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor, true
}

// soffice1 runs soffice headless with the private profile in its own
// process group, killed as a whole when ctx ends, and returns what it
// printed.
func (e *exporter) soffice1(ctx context.Context, args ...string) (string, error) {
	args = append([]string{"--headless", "--norestore", "--nologo", "--nodefault", e.profile}, args...)
	cmd := exec.CommandContext(ctx, e.soffice, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if runtime.GOOS == "linux" {
		// UTF-8 sheet names in output file names and on the console, even
		// where the system has no locale but C installed.
		cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	}
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return out.String(), fmt.Errorf("LibreOffice timed out (%w)", ctx.Err())
	}
	if err != nil {
		return out.String(), fmt.Errorf("soffice: %w: %s", err, tail(out.String()))
	}
	return out.String(), nil
}

// exportResult is one workbook's export: its sheets in workbook order,
// or why there are none.
type exportResult struct {
	sheets []loSheet
	err    error
}

// exportAll converts the workbooks at paths, up to batch of them per
// soffice run (LibreOffice's start-up costs more than most conversions),
// and returns each one's result. A run may take the per-file timeout
// times its files; when it fails or times out, the files it left without
// output are converted again one per run under the per-file timeout, so
// a file that hangs or crashes LibreOffice gets its own error. Exports
// already in the cache are read from it. The error is that of the
// profile's creation.
func (e *exporter) exportAll(ctx context.Context, paths []string, batch int, progress io.Writer) (map[string]exportResult, error) {
	res := map[string]exportResult{}
	keys := map[string]string{}
	var todo []string
	for _, p := range paths {
		key, err := fileKey(p)
		if err != nil {
			res[p] = exportResult{err: err}
			continue
		}
		keys[p] = key
		if e.cache != "" {
			if s, err := readManifest(filepath.Join(e.cache, key)); err == nil {
				res[p] = exportResult{sheets: s}
				continue
			}
		}
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return res, nil
	}
	if err := e.makeProfile(ctx); err != nil {
		return nil, err
	}
	batch = max(batch, 1)
	for i := 0; i < len(todo); i += batch {
		group := todo[i:min(i+batch, len(todo))]
		if progress != nil {
			fmt.Fprintf(progress, "LibreOffice: %d–%d of %d files to convert\n", i+1, i+len(group), len(todo))
		}
		got, batchErr := e.convert(ctx, group)
		for _, p := range group {
			s, ok := got[p]
			var err error
			switch {
			case !ok && len(group) > 1:
				s, err = e.convert1(ctx, p)
			case !ok:
				err = batchErr
			}
			if err == nil && e.cache != "" {
				s, err = storeManifest(filepath.Join(e.cache, keys[p]), s)
			}
			res[p] = exportResult{sheets: s, err: err}
		}
	}
	return res, nil
}

// convert1 converts one workbook.
func (e *exporter) convert1(ctx context.Context, p string) ([]loSheet, error) {
	got, err := e.convert(ctx, []string{p})
	if s, ok := got[p]; ok {
		return s, nil
	}
	if err == nil {
		err = errors.New("LibreOffice exported nothing")
	}
	return nil, err
}

// convert runs soffice once on the workbooks at paths, each copied
// under a neutral name b<i>.<ext> (LibreOffice names the CSVs after its
// input, b<i>-<Sheet>.csv, and the corpus holds names with spaces and
// brackets), and returns the sheets of those that were exported. After a
// failure or timeout nothing is returned, since the last file may be
// half written.
func (e *exporter) convert(ctx context.Context, paths []string) (map[string][]loSheet, error) {
	e.n++
	out := filepath.Join(e.work, "out", strconv.Itoa(e.n))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	args := []string{"--convert-to", csvFilter, "--outdir", out}
	prefix := map[string]string{}
	for i, p := range paths {
		name := "b" + strconv.Itoa(i+1)
		src := filepath.Join(out, name+strings.ToLower(filepath.Ext(p)))
		if err := copyFile(p, src); err != nil {
			return nil, err
		}
		defer os.Remove(src)
		args = append(args, src)
		prefix[p] = filepath.Join(out, name+"-")
	}
	cctx, cancel := context.WithTimeout(ctx, e.timeout*time.Duration(len(paths)))
	defer cancel()
	printed, err := e.soffice1(cctx, args...)
	if err != nil {
		return nil, err
	}
	written := writtenSheets(printed)
	got := map[string][]loSheet{}
	for _, p := range paths {
		for _, s := range written {
			if !strings.HasPrefix(s.csv, prefix[p]) {
				continue
			}
			if s, ok := resolveSheet(s, prefix[p]); ok {
				got[p] = append(got[p], s)
			}
		}
	}
	if len(got) < len(paths) {
		err = fmt.Errorf("LibreOffice exported nothing: %s", tail(printed))
	}
	return got, err
}

// writtenSheets reads LibreOffice's "Writing sheet <name> -> <path>"
// lines.
func writtenSheets(printed string) []loSheet {
	var s []loSheet
	sc := bufio.NewScanner(strings.NewReader(printed))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "Writing sheet ")
		if !ok {
			continue
		}
		i := strings.LastIndex(line, " -> ")
		if i < 0 {
			continue
		}
		s = append(s, loSheet{name: line[:i], csv: line[i+len(" -> "):]})
	}
	return s
}

// resolveSheet finds the CSV of an announced sheet. Where soffice's
// console is not UTF-8 it prints each other character as '?', so the
// announced path is matched as a pattern, and the sheet's name is taken
// from the file name, after the b<i>- prefix (a sheet name holds neither
// '?' nor '/').
func resolveSheet(s loSheet, prefix string) (loSheet, bool) {
	if _, err := os.Stat(s.csv); err != nil {
		if runtime.GOOS == "windows" || !strings.Contains(s.csv, "?") {
			return s, false
		}
		pattern := strings.NewReplacer(`\`, `\\`, "*", `\*`, "[", `\[`).Replace(s.csv)
		m, _ := filepath.Glob(pattern)
		if len(m) == 0 {
			return s, false
		}
		s.csv = m[0]
	}
	s.name = strings.TrimSuffix(strings.TrimPrefix(s.csv, prefix), ".csv")
	return s, true
}

// fileKey names a file's cached export: its content hash and the filter.
func fileKey(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	io.WriteString(h, "\x00"+csvFilter+"\x00"+loLocale)
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// storeManifest moves the CSVs into dir, numbered, and writes the
// manifest last, so that a half-written entry is never read.
func storeManifest(dir string, sheets []loSheet) ([]loSheet, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var m strings.Builder
	stored := make([]loSheet, len(sheets))
	for i, s := range sheets {
		name := strconv.Itoa(i+1) + ".csv"
		if err := copyFile(s.csv, filepath.Join(dir, name)); err != nil {
			return nil, err
		}
		stored[i] = loSheet{name: s.name, csv: filepath.Join(dir, name)}
		fmt.Fprintf(&m, "%s\t%s\n", s.name, name)
	}
	if err := os.WriteFile(filepath.Join(dir, manifestName), []byte(m.String()), 0o644); err != nil {
		return nil, err
	}
	return stored, nil
}

// readManifest reads a cached export.
func readManifest(dir string) ([]loSheet, error) {
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	var s []loSheet
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		name, file, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, errors.New("broken manifest " + dir)
		}
		s = append(s, loSheet{name: name, csv: filepath.Join(dir, file)})
	}
	return s, nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// tail is the last few hundred bytes of what a process printed, on one
// line.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return strings.Join(strings.Fields(s), " ")
}
