// Package search holds the search benchmarks on the generated corpus
// (bench/searchcorpus): in-process search per query kind, and publishing.
//
//	go test ./bench/search -bench . -benchtime 10x
//
// The 10 MB corpus is generated once per run into a temporary folder;
// FUMIBAKO_BENCH_SIZE (e.g. 100MB) and FUMIBAKO_BENCH_DIR choose another
// size or a folder to keep it in. The bench command (bench/cmd/bench)
// times the whole process against ripgrep and SQLite FTS5.
package search

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fumibako/fumibako/bench/searchcorpus"
	"github.com/fumibako/fumibako/internal/search"
)

var (
	once   sync.Once
	corpus *searchcorpus.Corpus
	tmp    string
)

func size() int64 {
	s := strings.ToUpper(os.Getenv("FUMIBAKO_BENCH_SIZE"))
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "GB"):
		mult, s = 1e9, strings.TrimSuffix(s, "GB")
	case strings.HasSuffix(s, "MB"):
		mult, s = 1e6, strings.TrimSuffix(s, "MB")
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return n * mult
	}
	return 10e6
}

func getCorpus(b *testing.B) *searchcorpus.Corpus {
	once.Do(func() {
		spec := searchcorpus.Spec{TextBytes: size()}
		dir := os.Getenv("FUMIBAKO_BENCH_DIR")
		if dir == "" {
			var err error
			if tmp, err = os.MkdirTemp("", "fumibako-bench-"); err != nil {
				b.Fatal(err)
			}
			dir = filepath.Join(tmp, "corpus")
		}
		if c := searchcorpus.Open(dir, spec); c != nil {
			corpus = c
			return
		}
		c, err := searchcorpus.Generate(dir, spec)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Publish(); err != nil {
			b.Fatal(err)
		}
		corpus = c
	})
	if corpus == nil {
		b.Skip("no corpus")
	}
	return corpus
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tmp != "" {
		os.RemoveAll(tmp)
	}
	os.Exit(code)
}

func BenchmarkSearch(b *testing.B) {
	c := getCorpus(b)
	idx, err := c.IndexBytes()
	if err != nil {
		b.Fatal(err)
	}
	ix := []search.Index{{Name: searchcorpus.Index}}
	for _, q := range searchcorpus.Queries {
		b.Run(strings.ReplaceAll(q.Name, " ", "_"), func(b *testing.B) {
			sq, err := search.Parse(q.Words, search.Options{Regex: q.Regex})
			if err != nil {
				b.Fatal(err)
			}
			var st search.Stats
			b.SetBytes(c.TextBytes)
			for i := 0; i < b.N; i++ {
				st, err = search.Run(context.Background(), c.ContentRoot(), ix, sq, func(search.Hit) bool { return true })
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(st.Hits), "hits")
			b.ReportMetric(float64(st.Blocks), "blocks-scanned")
			b.ReportMetric(float64(idx)/float64(c.TextBytes), "index-bytes/text-byte")
		})
	}
}

func BenchmarkPublish(b *testing.B) {
	spec := searchcorpus.Spec{TextBytes: 2e6, Seed: 2}
	b.SetBytes(spec.TextBytes)
	for i := 0; i < b.N; i++ {
		c, err := searchcorpus.Generate(filepath.Join(b.TempDir(), "p"), spec)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Publish(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(c.Files)/c.PublishTime.Seconds(), "files/s")
	}
}
