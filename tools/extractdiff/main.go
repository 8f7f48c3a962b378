// Command extractdiff extracts every file under the given folders, whole
// and damaged (cut at fixed fractions of its length, bytes flipped at
// positions drawn from a generator seeded by the file's path), and writes
// one deterministic dump of the outcomes: places (name, line count, SHA-256
// of the lines), log lines and error messages. Two runs of the same code
// give the same bytes, so running it before and after a refactoring of the
// readers and diffing the outputs proves that the refactoring changed no
// behaviour (issue 13):
//
//	go run ./tools/extractdiff -o /tmp/before.txt ../shared/corpus internal/extract/testdata
//	# … change the readers …
//	go run ./tools/extractdiff -o /tmp/after.txt ../shared/corpus internal/extract/testdata
//	cmp /tmp/before.txt /tmp/after.txt
//
// Files are named in the dump by their path relative to the folder given
// on the command line (prefixed with the folder as given), so the dump
// does not depend on where the checkout lives. -full writes every line of
// every place instead of its digest, to see what differs.
package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/libreoffice"
)

// job is one file in one state.
type job struct {
	name    string // display name: root-relative path
	src     string // the file on disk
	variant string // "whole", "cut25", …
}

// variants are the damaged states of a file of size n: the whole file, cuts
// at a quarter, half and nine tenths of its length, and two sets of
// flipped bytes.
var variants = []string{"whole", "cut25", "cut50", "cut90", "flip4", "flip64"}

func main() {
	out := flag.String("o", "", "output file (default stdout)")
	full := flag.Bool("full", false, "write every line instead of digests")
	workers := flag.Int("j", 2, "parallel extractions")
	timeout := flag.Duration("timeout", 2*time.Minute, "limit per extraction")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: extractdiff [-o FILE] [-full] [-j N] DIR…")
		os.Exit(2)
	}
	var jobs []job
	for _, root := range flag.Args() {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "fuzz" && filepath.Base(filepath.Dir(p)) == "testdata" {
				// Go fuzz seed corpora: fuzz inputs, not documents, and
				// they move with their fuzz tests.
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			for _, v := range variants {
				jobs = append(jobs, job{name: filepath.ToSlash(filepath.Join(filepath.Base(root), rel)), src: p, variant: v})
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "extractdiff:", err)
			os.Exit(1)
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].name < jobs[j].name })

	tmp, err := os.MkdirTemp("", "extractdiff-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "extractdiff:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(tmp)
	dumps := make([]string, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, *workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := filepath.Join(tmp, fmt.Sprintf("w%d", w))
			for i := range next {
				dumps[i] = run(jobs[i], dir, *full, *timeout)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "extractdiff:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	files := map[string]bool{}
	for i, d := range dumps {
		files[jobs[i].name] = true
		io.WriteString(w, d)
	}
	fmt.Fprintf(w, "== %d files, %d extractions\n", len(files), len(jobs))
}

// run extracts one job inside the worker folder dir and returns its dump.
func run(j job, dir string, full bool, timeout time.Duration) string {
	in := filepath.Join(dir, "in")
	scratch := filepath.Join(dir, "scratch")
	os.RemoveAll(in)
	os.MkdirAll(in, 0o755)
	os.MkdirAll(scratch, 0o755)
	clearScratch(scratch)
	var b strings.Builder
	fmt.Fprintf(&b, "== %s %s\n", j.name, j.variant)
	data, err := os.ReadFile(j.src)
	if err != nil {
		fmt.Fprintf(&b, "read: %v\n", err)
		return b.String()
	}
	data = damage(data, j.name, j.variant)
	path := filepath.Join(in, filepath.Base(j.src))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintf(&b, "write: %v\n", err)
		return b.String()
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := extractSafely(ctx, path, filepath.Base(j.src), scratch)
	clean := func(s string) string { return strings.ReplaceAll(s, dir, "$W") }
	if err != nil {
		var xerr *extract.Error
		var post *extract.Postponed
		switch {
		case errors.As(err, &xerr):
			fmt.Fprintf(&b, "error: %s\n", clean(xerr.Msg))
			for _, l := range xerr.Log {
				fmt.Fprintf(&b, "errlog: %s\n", clean(l))
			}
		case errors.As(err, &post):
			fmt.Fprintf(&b, "postponed: %s\n", clean(post.Msg))
		}
		fmt.Fprintf(&b, "cause: %s\n", clean(err.Error()))
	}
	if res == nil {
		return b.String()
	}
	for _, l := range res.Log {
		fmt.Fprintf(&b, "log: %s\n", clean(l))
	}
	for _, p := range res.Places {
		if full {
			fmt.Fprintf(&b, "place %q %d\n", p.Name, len(p.Lines))
			for _, l := range p.Lines {
				fmt.Fprintf(&b, "\t%q\n", l)
			}
			continue
		}
		h := sha256.New()
		for _, l := range p.Lines {
			io.WriteString(h, l)
			h.Write([]byte{0})
		}
		fmt.Fprintf(&b, "place %q %d %x\n", p.Name, len(p.Lines), h.Sum(nil)[:12])
	}
	return b.String()
}

// extractSafely turns a panic into an error, as the worker does.
func extractSafely(ctx context.Context, path, name, scratch string) (res *extract.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return extract.Extract(ctx, path, name, extract.Options{Scratch: scratch})
}

// clearScratch empties the scratch folder but keeps LibreOffice's profile,
// as the worker does between files.
func clearScratch(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != libreoffice.Profile {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// damage returns data in the given state; the flips are drawn from a
// generator seeded by name, so every run damages the same bytes.
func damage(data []byte, name, variant string) []byte {
	n := len(data)
	switch variant {
	case "cut25":
		return data[:n/4]
	case "cut50":
		return data[:n/2]
	case "cut90":
		return data[:n*9/10]
	case "flip4", "flip64":
		if n == 0 {
			return data
		}
		h := fnv.New64a()
		io.WriteString(h, name+"/"+variant)
		r := rand.New(rand.NewPCG(h.Sum64(), 13))
		count := 4
		if variant == "flip64" {
			count = 64
		}
		out := append([]byte(nil), data...)
		for range count {
			out[r.IntN(n)] ^= 0xFF
		}
		return out
	}
	return data
}
