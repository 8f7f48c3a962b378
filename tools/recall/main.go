// Command recall measures how much of a reference extraction fumibako's
// readers find, per file and per category (issue 33): for each PDF,
// OpenDocument and RTF file under the folders given, the reference text
// comes from another program (pdftotext for PDF; LibreOffice's text
// export for .odt .fodt .rtf, its CSV export for .ods .fods, and its PDF
// export read by pdftotext for .odp .fodp), its words are the maximal runs
// of letters and digits of one script (a run of kanji and kana is one
// word, as a user would type it), and a word is found when it is a
// substring of the text fumibako extracted from the file, white space
// removed on both sides. A file's recall is found words / words; the
// table gives, per category, the files, the median and the 10th
// percentile of recall, and the files below 0.9 with their recall:
//
//	go run ./tools/recall internal/extract/pdf/testdata internal/extract/odf/testdata internal/extract/rtf/testdata
//
// Run the same command on another checkout (git archive main) to compare
// before and after; bench/recall.md holds the table.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
)

// category of a file by extension, and how its reference is made.
var categories = map[string]string{
	".pdf": "PDF",
	".odt": "ODF text", ".fodt": "ODF text",
	".ods": "ODF sheet", ".fods": "ODF sheet",
	".odp": "ODF slides", ".fodp": "ODF slides",
	".rtf": "RTF",
}

func main() {
	verbose := flag.Bool("v", false, "print each file's recall and the words not found")
	flag.Parse()
	profile, err := os.MkdirTemp("", "recall-lo-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(profile)
	type score struct {
		file   string
		recall float64
	}
	byCat := map[string][]score{}
	for _, root := range flag.Args() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			cat, ok := categories[strings.ToLower(filepath.Ext(p))]
			if !ok {
				return nil
			}
			ref, err := reference(p, profile)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: reference: %v\n", p, err)
				return nil
			}
			words := wordsOf(ref)
			if len(words) == 0 {
				return nil // nothing to find (a scan, a damaged file)
			}
			got := ""
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, err := extract.Extract(ctx, p, filepath.Base(p), extract.Options{Scratch: profile})
			cancel()
			if err == nil {
				var b strings.Builder
				for _, pl := range res.Places {
					for _, l := range pl.Lines {
						b.WriteString(l)
						b.WriteByte('\n')
					}
				}
				got = squeeze(b.String())
			}
			found := 0
			var missing []string
			for _, w := range words {
				if strings.Contains(got, w) {
					found++
				} else {
					missing = append(missing, w)
				}
			}
			r := float64(found) / float64(len(words))
			byCat[cat] = append(byCat[cat], score{p, r})
			if *verbose {
				fmt.Printf("%.3f %s (%d words; err %v) missing %q\n", r, p, len(words), err, missing)
			}
			return nil
		})
	}
	var cats []string
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	fmt.Println("| category | files | median | 10th percentile | below 0.9 |")
	fmt.Println("|---|---:|---:|---:|---|")
	for _, c := range cats {
		s := byCat[c]
		sort.Slice(s, func(i, j int) bool { return s[i].recall < s[j].recall })
		var low []string
		for _, x := range s {
			if x.recall < 0.9 {
				low = append(low, fmt.Sprintf("%s %.2f", filepath.Base(x.file), x.recall))
			}
		}
		rs := make([]float64, len(s))
		for i, x := range s {
			rs[i] = x.recall
		}
		fmt.Printf("| %s | %d | %.2f | %.2f | %s |\n", c, len(s), quantile(rs, 0.5), quantile(rs, 0.1), strings.Join(low, ", "))
	}
}

// quantile of sorted values (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted)-1) + 0.5)
	return sorted[i]
}

// reference is the text another program extracts from the file at p.
func reference(p, profile string) (string, error) {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".pdf":
		return run("pdftotext", "-enc", "UTF-8", p, "-")
	case ".odt", ".fodt", ".rtf":
		return soffice(p, profile, "txt:Text (encoded):UTF8", ".txt")
	case ".ods", ".fods":
		return soffice(p, profile, "csv:Text - txt - csv (StarCalc):44,34,76", ".csv")
	default:
		pdf, err := sofficeFile(p, profile, "pdf", ".pdf")
		if err != nil {
			return "", err
		}
		defer os.Remove(pdf)
		return run("pdftotext", "-enc", "UTF-8", pdf, "-")
	}
}

func soffice(p, profile, filter, ext string) (string, error) {
	out, err := sofficeFile(p, profile, filter, ext)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(filepath.Dir(out))
	b, err := os.ReadFile(out)
	return string(b), err
}

// sofficeFile converts p with LibreOffice into a temporary folder and
// returns the converted file's path.
func sofficeFile(p, profile, filter, ext string) (string, error) {
	dir, err := os.MkdirTemp("", "recall-out-")
	if err != nil {
		return "", err
	}
	if _, err := run("soffice", "-env:UserInstallation=file://"+filepath.ToSlash(profile)+"/lo", "--headless",
		"--convert-to", filter, "--outdir", dir, p); err != nil {
		return "", err
	}
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))+ext)
	if _, err := os.Stat(out); err != nil {
		return "", fmt.Errorf("soffice wrote no %s", ext)
	}
	return out, nil
}

// run runs a reference program for at most a minute (pdftotext spins on
// a form-XObject bomb; such a file has no reference).
func run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %v: %s", name, err, errb.String())
	}
	return out.String(), nil
}

// wordsOf splits a text into words: maximal runs of letters and digits of
// one script class (Latin and digits; Han, kana and the prolonged sound
// mark together; any other script by itself), each once.
func wordsOf(s string) []string {
	seen := map[string]bool{}
	var words []string
	var cur []rune
	curClass := -1
	flush := func() {
		if len(cur) > 0 {
			w := string(cur)
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
		cur, curClass = cur[:0], -1
	}
	for _, r := range s {
		c := class(r)
		if c < 0 {
			flush()
			continue
		}
		if c != curClass {
			flush()
		}
		cur, curClass = append(cur, r), c
	}
	flush()
	return words
}

// class is the script class of a word's rune, -1 for none.
func class(r rune) int {
	switch {
	case !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != 'ー':
		return -1
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' || r == '々':
		return 1
	case r < 0x250 || unicode.IsDigit(r):
		return 0
	case unicode.Is(unicode.Hangul, r):
		return 2
	case unicode.Is(unicode.Cyrillic, r):
		return 3
	case unicode.Is(unicode.Greek, r):
		return 4
	}
	return 5
}

// squeeze removes white space, so that line breaks and the spaces one
// program puts where the other does not (a font change, a cell) do not
// decide a word.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "recall:", err)
	os.Exit(1)
}
