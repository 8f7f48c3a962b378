package xls

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/extract/libreoffice"
	"github.com/fumibako/fumibako/internal/testutil"
	"golang.org/x/text/encoding/charmap"
)

// TestLegacyExcelLibreOffice compares every cell the native reader gives
// for Excel 5.0/95 workbooks (BIFF5) and Excel 3.0/4.0 worksheets (BIFF3,
// BIFF4) with LibreOffice's own CSV export of the same
// file (all sheets, UTF-8, cells as shown, in the Japanese locale the
// readers format for), and the comment and header/footer places with
// those of LibreOffice's .xlsx conversion read by the .xlsx reader. The
// workbooks are the BIFF3–BIFF5 files of the shared corpus and the ones
// built byte by byte in biff5_internal_test.go. A cell that differs must be
// listed in biff5Differences with the reason; a listed difference that
// no longer occurs fails too, so the list stays true.
func TestLegacyExcelLibreOffice(t *testing.T) {
	soffice, err := libreoffice.Find()
	if err != nil {
		testutil.Unavailable(t, "LibreOffice (soffice) not found: no oracle for the BIFF5 reader")
	}
	inputs := map[string]string{} // label → file
	dir := t.TempDir()
	for name, book := range map[string][]byte{
		"built/cp932.xls":    cp932Book(t),
		"built/cp1252.xls":   westernBook(t, 1252, charmap.Windows1252),
		"built/macroman.xls": westernBook(t, 10000, charmap.Macintosh),
		"built/cp932-wb.xls": nil, // the cp932 book under the stream name Workbook
	} {
		stream := "Book"
		if book == nil {
			book, stream = cp932Book(t), "Workbook"
		}
		p := filepath.Join(dir, strings.ReplaceAll(name, "/", "-"))
		if err := os.WriteFile(p, fixture.CfbFile(t, map[string][]byte{stream: book}), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs[name] = p
	}
	for _, ver := range []int{3, 4} {
		name := "built/biff" + strconv.Itoa(ver) + ".xls"
		p := filepath.Join(dir, strings.ReplaceAll(name, "/", "-"))
		if err := os.WriteFile(p, oldBook(t, ver), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs[name] = p
	}
	corpus := testutil.CorpusDir(t)
	for _, rel := range append(biff5CorpusFiles, oldCorpusFiles...) {
		p := filepath.Join(corpus, rel)
		if _, err := os.Stat(p); err != nil {
			t.Logf("corpus file %s absent: compared the built workbooks only", rel)
			continue
		}
		inputs[rel] = p
	}
	labels := make([]string, 0, len(inputs))
	for l := range inputs {
		labels = append(labels, l)
	}
	sort.Strings(labels)

	// Built-in formats as a Japanese Excel shows them: LibreOffice's
	// locale setting is Japanese (in its profile, whether or not the
	// system has a Japanese locale); file names in UTF-8 (LibreOffice
	// names each CSV after its sheet).
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("LC_ALL", "")
	scratch := t.TempDir()
	user := filepath.Join(scratch, libreoffice.Profile, "user")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, "registrymodifications.xcu"), []byte(japaneseLocale), 0o644); err != nil {
		t.Fatal(err)
	}
	csvs := loCSV(t, soffice, labels, inputs, scratch)
	// Cells and the visible sheets from the CSV export and the .xlsx
	// conversion; comments from the OpenDocument conversion (LibreOffice
	// 7.4 writes BIFF5 notes into .xlsx without their text), headers and
	// footers from the .xlsx conversion (its .ods output turns &P into
	// the number of the first page).
	xlsxDir := loConvert(t, soffice, labels, inputs, scratch, "xlsx:Calc MS Excel 2007 XML")
	odsDir := loConvert(t, soffice, labels, inputs, scratch, "ods:calc8")
	oracle := func(dir string, i int, ext string) *extract.Result {
		p := filepath.Join(dir, strconv.Itoa(i)+ext)
		res, err := extract.ReaderFor(ext)(context.Background(), p, extract.Options{Scratch: t.TempDir()})
		if err != nil {
			t.Fatalf("%s: LibreOffice's %s conversion: %v", labels[i], ext, err)
		}
		return res
	}
	seen := map[string]bool{}
	var report strings.Builder
	for i, label := range labels {
		res, err := readXlsNative(context.Background(), inputs[label], extract.Options{Scratch: t.TempDir()})
		if err != nil {
			t.Errorf("%s: native reader: %v", label, err)
			continue
		}
		want, ods := oracle(xlsxDir, i, ".xlsx"), oracle(odsDir, i, ".ods")
		// The sheets compared: those with cells in either reading (the
		// CSV export holds hidden sheets too; LibreOffice's .xlsx
		// conversion read by the .xlsx reader tells the visible ones).
		native, visible := map[string]map[[2]int]string{}, map[string]bool{}
		for _, p := range res.Places {
			if !strings.Contains(p.Name, "[") {
				native[p.Name] = nativeCells(p.Lines)
				visible[p.Name] = true
			}
		}
		for _, p := range want.Places {
			if !strings.Contains(p.Name, "[") {
				visible[p.Name] = true
			}
		}
		lo := csvs[i]
		var match, total int
		for _, name := range unionKeys(native, lo) {
			if !visible[name] {
				continue
			}
			n, l := native[name], lo[name]
			for _, at := range unionCells(n, l) {
				total++
				key := fmt.Sprintf("%s %s!%s", label, name, sheet.CellName(at[1], at[0]))
				if n[at] == l[at] {
					match++
					continue
				}
				want, listed := biff5Differences[key]
				seen[key] = true
				if !listed || want != [2]string{l[at], n[at]} {
					t.Errorf("%s: LibreOffice %q, native %q", key, l[at], n[at])
				}
			}
		}
		// Comments and headers/footers: LibreOffice's .xlsx conversion.
		objMatch, objTotal := compareObjects(t, label, "[ヘッダー・フッター]", want, res, seen)
		m, n := compareObjects(t, label, "[コメント]", ods, res, seen)
		objMatch, objTotal = objMatch+m, objTotal+n
		fmt.Fprintf(&report, "  %-45s cells %d/%d  comment and header/footer lines %d/%d\n", label, match, total, objMatch, objTotal)
	}
	for key := range biff5Differences {
		file, _, _ := strings.Cut(key, " ")
		if _, ok := inputs[file]; ok && !seen[key] {
			t.Errorf("%s: listed as a difference, but LibreOffice and the native reader agree", key)
		}
	}
	t.Log("BIFF3–BIFF5 agreement with LibreOffice (matching / total):\n" + report.String())
}

// japaneseLocale is a LibreOffice profile setting: the locale of number
// and date formats (Tools > Options > Languages > Locale setting).
const japaneseLocale = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Setup/L10N"><prop oor:name="ooSetupSystemLocale" oor:op="fuse"><value>ja-JP</value></prop></item>
</oor:items>
`

// biff5CorpusFiles are the Excel 5.0/95 workbooks of the shared corpus.
var biff5CorpusFiles = []string{
	"tika/testEXCEL_5.xls",
	"tika/testEXCEL_95.xls",
	"calamine/biff5_write.xls",
	"calamine/biff5-rich-text-string.xls",
	"calamine/issue_643_biff5_formula.xls",
	"calamine/misc_biff5_parsing.xls",
}

// oldCorpusFiles are the Excel 3.0/4.0 worksheets of the shared corpus.
var oldCorpusFiles = []string{"tika/testEXCEL_4.xls"}

// biff5Differences are the cells where LibreOffice and the native reader
// differ on purpose, by "<file> <sheet>!<cell>": LibreOffice's CSV, then
// the native text.
//
// Booleans: LibreOffice's BIFF5 import gives BOOLERR cells the General
// format, so its CSV shows 1 and 0; Excel shows TRUE and FALSE, as the
// native reader (and LibreOffice's own BIFF8 import) does.
var biff5Differences = map[string][2]string{
	"built/cp932.xls 見積!B4":                           {"1", "TRUE"},
	"built/cp932-wb.xls 見積!B4":                        {"1", "TRUE"},
	"calamine/biff5_write.xls SheetJS!A2":             {"1", "TRUE"},
	"calamine/biff5_write.xls SheetJS!B2":             {"0", "FALSE"},
	"calamine/issue_643_biff5_formula.xls SheetJS!A2": {"1", "TRUE"},
	"calamine/issue_643_biff5_formula.xls SheetJS!B2": {"0", "FALSE"},
	// Header and footer codes: "&K000000" (a font colour, Excel 2007 and
	// later) is not known to LibreOffice's BIFF5 import, which shows its
	// digits; Excel and the native reader drop it.
	"calamine/misc_biff5_parsing.xls Sheet1[ヘッダー・フッター]:1": {"# 0 00000 Confidential", "# Confidential"},
}

// loConvert converts every input with one soffice run to the given
// filter and returns the output folder; input i is named "<i>.xls" there.
func loConvert(t *testing.T, soffice string, labels []string, inputs map[string]string, scratch, filter string) string {
	in := filepath.Join(scratch, "lo-in")
	out := filepath.Join(scratch, "lo-out-"+strconv.Itoa(len(filter)))
	os.RemoveAll(in)
	for _, d := range []string{in, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for i, l := range labels {
		n := strconv.Itoa(i) + ".xls"
		if err := libreoffice.Copy(inputs[l], filepath.Join(in, n)); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--norestore", "--nolockcheck",
		"-env:UserInstallation=" + libreoffice.FileURL(filepath.Join(scratch, libreoffice.Profile)),
		"--convert-to", filter, "--outdir", out}, names...)
	cmd := exec.CommandContext(ctx, soffice, args...)
	cmd.Dir = in
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice --convert-to %s: %v: %s", filter, err, b)
	}
	return out
}

// loCSV exports every sheet of every input to CSV and returns, per input
// in labels order, the cells of each sheet: tab-separated, " quotes,
// UTF-8 (76), Japanese (1041), cells as shown, every sheet to its own
// file <i>-<sheet>.csv (-1).
func loCSV(t *testing.T, soffice string, labels []string, inputs map[string]string, scratch string) []map[string]map[[2]int]string {
	out := loConvert(t, soffice, labels, inputs, scratch, "csv:Text - txt - csv (StarCalc):9,34,76,1,,1041,false,true,true,false,false,-1")
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	res := make([]map[string]map[[2]int]string, len(labels))
	for i := range labels {
		res[i] = map[string]map[[2]int]string{}
		prefix := strconv.Itoa(i) + "-"
		found := false
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), prefix) || !strings.HasSuffix(e.Name(), ".csv") {
				continue
			}
			found = true
			b, err := os.ReadFile(filepath.Join(out, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			r := csv.NewReader(strings.NewReader(string(b)))
			r.Comma, r.FieldsPerRecord, r.LazyQuotes = '\t', -1, true
			rows, err := r.ReadAll()
			if err != nil {
				t.Fatalf("%s: LibreOffice's CSV %s: %v", labels[i], e.Name(), err)
			}
			cells := map[[2]int]string{}
			for ri, row := range rows {
				for ci, v := range row {
					if v = strings.ReplaceAll(v, "\r\n", "\n"); v != "" {
						cells[[2]int{ri + 1, ci + 1}] = v
					}
				}
			}
			res[i][strings.TrimSuffix(strings.TrimPrefix(e.Name(), prefix), ".csv")] = cells
		}
		if !found {
			t.Errorf("%s: LibreOffice exported no CSV", labels[i])
		}
	}
	return res
}

// nativeCells splits a sheet place's lines (line N = row N, cells joined
// by TAB, quoted as CellField quotes them) into cells.
func nativeCells(lines []string) map[[2]int]string {
	cells := map[[2]int]string{}
	for ri, l := range lines {
		r := csv.NewReader(strings.NewReader(strings.ReplaceAll(l, sheet.LS, "\n")))
		r.Comma, r.FieldsPerRecord, r.LazyQuotes = '\t', -1, true
		row, err := r.Read()
		if err != nil {
			continue
		}
		for ci, v := range row {
			if v != "" {
				cells[[2]int{ri + 1, ci + 1}] = v
			}
		}
	}
	return cells
}

// compareObjects compares the places whose names end in suffix (comments
// or headers/footers) of LibreOffice's reading and the native one, line
// by line; a difference fails unless listed.
func compareObjects(t *testing.T, label, suffix string, want, got *extract.Result, seen map[string]bool) (match, total int) {
	t.Helper()
	w, g := map[string][]string{}, map[string][]string{}
	for _, p := range want.Places {
		if strings.HasSuffix(p.Name, suffix) {
			w[p.Name] = p.Lines
		}
	}
	for _, p := range got.Places {
		if strings.HasSuffix(p.Name, suffix) {
			g[p.Name] = p.Lines
		}
	}
	for _, name := range unionKeys(w, g) {
		for i := 0; i < max(len(w[name]), len(g[name])); i++ {
			var wl, gl string
			if i < len(w[name]) {
				wl = w[name][i]
			}
			if i < len(g[name]) {
				gl = g[name][i]
			}
			total++
			if wl == gl {
				match++
				continue
			}
			key := fmt.Sprintf("%s %s:%d", label, name, i+1)
			seen[key] = true
			if d, ok := biff5Differences[key]; !ok || d != [2]string{wl, gl} {
				t.Errorf("%s: LibreOffice %q, native %q", key, wl, gl)
			}
		}
	}
	return match, total
}

func unionKeys[V any](a, b map[string]V) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func unionCells(a, b map[[2]int]string) [][2]int {
	keys := map[[2]int]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	out := make([][2]int, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}
