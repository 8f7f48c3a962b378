package xls

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/extract/libreoffice"
	"github.com/fumibako/fumibako/internal/testutil"
)

// The agreement report of issue 6: for every .xls and .xlsb of the shared
// corpus, and for .xls fixtures LibreOffice makes from the corpus's .xlsx
// files, the native reader's lines are compared with those of
// LibreOffice's .xlsx conversion read by the .xlsx reader, place by place
// and line by line (line N = row N). The share is over LibreOffice's
// non-empty lines; lines only the native reader has are counted apart.
//
//	FUMIBAKO_AGREEMENT=1 go test -run TestNativeAgreement -v -timeout 60m ./internal/extract/
//
// Conversions are cached under $FUMIBAKO_AGREEMENT_CACHE (default: the
// user cache folder's fumibako-agreement), keyed by the content hash, so a
// second run only reads. FUMIBAKO_AGREEMENT_DIFF=N prints up to N
// differing lines of each of the worst files.

func TestNativeAgreement(t *testing.T) {
	if os.Getenv("FUMIBAKO_AGREEMENT") == "" {
		t.Skip("set FUMIBAKO_AGREEMENT=1 to compare the native readers with LibreOffice (minutes of conversions on the first run)")
	}
	soffice, err := libreoffice.Find()
	if err != nil {
		testutil.Unavailable(t, "LibreOffice (soffice) not found: no oracle to compare the native readers with")
	}
	corpus := testutil.Corpus(t)
	cache := os.Getenv("FUMIBAKO_AGREEMENT_CACHE")
	if cache == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(d, "fumibako-agreement")
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	lo := &loCache{t: t, soffice: soffice, dir: cache, scratch: t.TempDir()}
	// LibreOffice shows built-in formats (dates, 37–40) in its locale: run
	// it as a Japanese Excel would show them, like the readers do.
	t.Setenv("LANG", agreeLocale)
	t.Setenv("LC_ALL", agreeLocale)

	var legacy, sources []string
	filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".xls", ".xlsb":
			legacy = append(legacy, p)
		case ".xlsx", ".xlsm":
			sources = append(sources, p)
		}
		return nil
	})
	if len(legacy) == 0 {
		testutil.CorpusMissing(t, "no .xls or .xlsb under %s", corpus)
	}
	// Fixtures: the corpus's .xlsx files and the .xlsx reader's generated
	// fixtures, saved as .xls by LibreOffice.
	gen := map[string]string{}
	if AgreementXlsxFixtures != nil {
		dir := t.TempDir()
		for name, data := range AgreementXlsxFixtures(t) {
			p := filepath.Join(dir, name+".xlsx")
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			gen[p] = "generated/" + name + ".xlsx"
			sources = append(sources, p)
		}
	}
	fixtures := lo.convert(sources, "xls")
	type input struct{ path, label, kind string }
	var inputs []input
	for _, p := range legacy {
		rel, _ := filepath.Rel(corpus, p)
		inputs = append(inputs, input{p, rel, "corpus " + strings.ToLower(filepath.Ext(p))})
	}
	for _, src := range sources {
		if x, ok := fixtures[src]; ok {
			rel, _ := filepath.Rel(corpus, src)
			if g, ok := gen[src]; ok {
				rel = g
			}
			inputs = append(inputs, input{x, rel + " → .xls", "fixture .xls"})
		}
	}
	var paths []string
	for _, in := range inputs {
		paths = append(paths, in.path)
	}
	oracle := lo.convert(paths, "xlsx")

	ctx := context.Background()
	var rows []agreeRow
	var excluded []string
	kinds := map[string]*agreeRow{}
	// accepted sums the files the native reader reads; the others fall
	// back to LibreOffice in the legacy path and agree by construction.
	var accepted agreeRow
	for _, in := range inputs {
		conv, ok := oracle[in.path]
		if !ok {
			excluded = append(excluded, in.label+": LibreOffice could not convert it")
			continue
		}
		want, err := libreoffice.ReadConverted(ctx, conv, "xlsx", extract.Options{Scratch: t.TempDir()})
		if err != nil {
			excluded = append(excluded, fmt.Sprintf("%s: LibreOffice's conversion unreadable: %v", in.label, err))
			continue
		}
		nr := extract.NativeReaders()[strings.ToLower(filepath.Ext(in.path))]
		if nr == nil {
			excluded = append(excluded, in.label+": no native reader")
			continue
		}
		formulas := map[string]bool{}
		sheet.FormulaTrace = func(sheet string, row int) { formulas[sheet+"\x00"+strconv.Itoa(row)] = true }
		got, nerr := nr(ctx, in.path, extract.Options{Scratch: t.TempDir()})
		sheet.FormulaTrace = nil
		r := agreeCompare(want, got, formulas)
		r.label, r.kind, r.err = in.label, in.kind, nerr
		if r.total == 0 && r.extra == 0 && nerr == nil {
			r.empty = true
		}
		rows = append(rows, r)
		k := kinds[in.kind]
		if k == nil {
			k = &agreeRow{label: in.kind}
			kinds[in.kind] = k
		}
		k.files++
		k.total += r.total
		k.match += r.match
		k.extra += r.extra
		k.formula += r.formula
		k.formulaMatch += r.formulaMatch
		if nerr == nil {
			accepted.files++
			accepted.total += r.total
			accepted.match += r.match
			accepted.extra += r.extra
			accepted.formula += r.formula
			accepted.formulaMatch += r.formulaMatch
		}
	}
	var all agreeRow
	for _, k := range kinds {
		all.files += k.files
		all.total += k.total
		all.match += k.match
		all.extra += k.extra
	}
	var b strings.Builder
	fmt.Fprintf(&b, "native agreement: %d of %d LibreOffice lines identical (%s) over %d files; %d native-only lines; %d files excluded\n",
		all.match, all.total, agreePct(all.match, all.total), all.files, all.extra, len(excluded))
	fmt.Fprintf(&b, "  over the %d files the native reader accepts (the rest fall back to LibreOffice): %d of %d lines identical (%s)\n",
		accepted.files, accepted.match, accepted.total, agreePct(accepted.match, accepted.total))
	plainMatch, plainTotal := accepted.match-accepted.formulaMatch, accepted.total-accepted.formula
	fmt.Fprintf(&b, "    lines without formula results: %d of %d identical (%s); lines with formula results (LibreOffice recalculates, the native readers show Excel's cached value): %d of %d (%s)\n",
		plainMatch, plainTotal, agreePct(plainMatch, plainTotal), accepted.formulaMatch, accepted.formula, agreePct(accepted.formulaMatch, accepted.formula))
	var kn []string
	for k := range kinds {
		kn = append(kn, k)
	}
	sort.Strings(kn)
	for _, k := range kn {
		r := kinds[k]
		fmt.Fprintf(&b, "  %-14s %4d files  %7d/%-7d lines  %s  native-only %d\n", k, r.files, r.match, r.total, agreePct(r.match, r.total), r.extra)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].share() < rows[j].share() })
	fmt.Fprintf(&b, "worst files:\n")
	ndiff, _ := strconv.Atoi(os.Getenv("FUMIBAKO_AGREEMENT_DIFF"))
	for i, r := range rows {
		if i >= 40 || r.share() >= 1 && r.extra == 0 {
			break
		}
		fmt.Fprintf(&b, "  %7s  %4d/%-4d lines  native-only %-3d %s", agreePct(r.match, r.total), r.match, r.total, r.extra, r.label)
		if r.err != nil {
			fmt.Fprintf(&b, "  (native error: %v)", r.err)
		}
		b.WriteByte('\n')
		for k, d := range r.diffs {
			if k >= ndiff {
				break
			}
			fmt.Fprintf(&b, "      %s\n", d)
		}
	}
	for _, e := range excluded {
		fmt.Fprintf(&b, "excluded: %s\n", e)
	}
	t.Log("\n" + b.String())
	if p := os.Getenv("FUMIBAKO_AGREEMENT_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// AgreementXlsxFixtures, set by the package's external tests (which hold
// the .xlsx reader's fixture builders), returns more .xlsx workbooks to
// save as .xls with LibreOffice and compare, by name.
var AgreementXlsxFixtures func(tb testing.TB) map[string][]byte

// agreeLocale is the locale LibreOffice converts in.
const agreeLocale = "ja_JP.UTF-8"

// agreeRow is the comparison of one file (or a kind of files).
type agreeRow struct {
	label, kind           string
	files                 int
	total, match, extra   int
	formula, formulaMatch int // LibreOffice lines in rows with formula results
	empty                 bool
	err                   error
	diffs                 []string
}

func (r agreeRow) share() float64 {
	if r.total == 0 {
		if r.extra > 0 || r.err != nil {
			return 0
		}
		return 1
	}
	return float64(r.match) / float64(r.total)
}

func agreePct(m, n int) string {
	if n == 0 {
		return "  -  "
	}
	return fmt.Sprintf("%.2f%%", 100*float64(m)/float64(n))
}

// agreeCompare compares the native result got with LibreOffice's want.
func agreeCompare(want, got *extract.Result, formulas map[string]bool) agreeRow {
	var r agreeRow
	gp := map[string][]string{}
	if got != nil {
		for _, p := range got.Places {
			gp[p.Name] = p.Lines
		}
	}
	wp := map[string][]string{}
	for _, p := range want.Places {
		wp[p.Name] = p.Lines
		g := gp[p.Name]
		for i, l := range p.Lines {
			if l == "" {
				continue
			}
			r.total++
			f := formulas[p.Name+"\x00"+strconv.Itoa(i+1)]
			if f {
				r.formula++
			}
			var gl string
			if i < len(g) {
				gl = g[i]
			}
			if gl == l {
				r.match++
				if f {
					r.formulaMatch++
				}
				continue
			}
			mark := ""
			if f {
				mark = " (formula row)"
			}
			r.diffs = append(r.diffs, fmt.Sprintf("%s:%d%s  lo=%q  native=%q", p.Name, i+1, mark, agreeShort(l), agreeShort(gl)))
		}
	}
	if got != nil {
		for _, p := range got.Places {
			w := wp[p.Name]
			for i, l := range p.Lines {
				if l != "" && (i >= len(w) || w[i] == "") {
					r.extra++
					r.diffs = append(r.diffs, fmt.Sprintf("%s:%d  lo=\"\"  native=%q", p.Name, i+1, agreeShort(l)))
				}
			}
		}
	}
	return r
}

func agreeShort(s string) string {
	if r := []rune(s); len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return s
}

// loCache converts files with LibreOffice once and keeps the results by
// content hash.
type loCache struct {
	t       *testing.T
	soffice string
	dir     string
	scratch string
}

func fileKey(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// convert returns, for each file LibreOffice converts to target ("xls" or
// "xlsx"), the path of the converted file in the cache.
func (c *loCache) convert(files []string, target string) map[string]string {
	out := map[string]string{}
	var todo []string
	key := map[string]string{}
	for _, f := range files {
		k, err := fileKey(f)
		if err != nil {
			c.t.Fatal(err)
		}
		key[f] = k
		dst := filepath.Join(c.dir, k+"-"+agreeLocale+"."+target)
		if _, err := os.Stat(dst); err == nil {
			out[f] = dst
			continue
		}
		if _, err := os.Stat(dst + ".failed"); err == nil {
			continue
		}
		todo = append(todo, f)
	}
	const chunk = 20
	for i := 0; i < len(todo); i += chunk {
		part := todo[i:min(i+chunk, len(todo))]
		got, err := c.run(part, target, 10*time.Minute)
		if err != nil {
			// One file stalled the batch: convert them one by one.
			got = map[string]string{}
			for _, f := range part {
				g, err := c.run([]string{f}, target, 2*time.Minute)
				if err == nil {
					for k, v := range g {
						got[k] = v
					}
				}
			}
		}
		for _, f := range part {
			dst := filepath.Join(c.dir, key[f]+"-"+agreeLocale+"."+target)
			src, ok := got[f]
			if !ok {
				os.WriteFile(dst+".failed", nil, 0o644)
				continue
			}
			if err := libreoffice.Copy(src, dst); err != nil {
				c.t.Fatal(err)
			}
			out[f] = dst
		}
	}
	return out
}

// run converts files with one soffice process.
func (c *loCache) run(files []string, target string, limit time.Duration) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	if target == "xlsx" {
		return libreoffice.ConvertBatch(ctx, c.soffice, files, target, c.scratch)
	}
	in := filepath.Join(c.scratch, "xls-in")
	outDir := filepath.Join(c.scratch, "xls-out")
	for _, d := range []string{in, outDir} {
		os.RemoveAll(d)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	var names []string
	for i, f := range files {
		n := strconv.Itoa(i+1) + strings.ToLower(filepath.Ext(f))
		if err := libreoffice.Copy(f, filepath.Join(in, n)); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	args := append([]string{"--headless", "--norestore", "--nolockcheck",
		"-env:UserInstallation=" + libreoffice.FileURL(filepath.Join(c.scratch, libreoffice.Profile)),
		"--convert-to", "xls:MS Excel 97", "--outdir", outDir}, names...)
	cmd := exec.CommandContext(ctx, c.soffice, args...)
	cmd.Dir = in
	if out, err := cmd.CombinedOutput(); err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("soffice: %v: %s", err, out)
	}
	res := map[string]string{}
	for i, f := range files {
		p := filepath.Join(outDir, strings.TrimSuffix(names[i], filepath.Ext(names[i]))+".xls")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			res[f] = p
		}
	}
	return res, nil
}
