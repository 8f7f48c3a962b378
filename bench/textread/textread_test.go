// Package textread measures the worker's path for one small text file
// (issue 35): the text reader (encoding rules, decoding, lines) on bytes
// the router read whole, then the inline answer the worker builds of its
// places (content.NormalizePlaces, content.AppendPlaces). A build of a
// share of small text files spends most of the worker's CPU here.
//
// The files are the first few hundred of the small-file benchmark's
// 5,000-file tree (bench/small-files.sh; its generator), read into memory
// once; the benchmark skips when the tree is absent. TEXTREAD_TREE names
// another tree.
//
//	go test ./bench/textread -run XXX -bench . -benchtime 20x -count 5
//
// BenchmarkTextPath works on the bytes in memory (no system calls);
// BenchmarkTextPathFiles goes through extract.Extract with each file's
// path, as the worker does (the router's open, stat and read included).
package textread

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/text"
)

// defaultTree is where bench/small-files.sh generates its 5,000-file tree.
const defaultTree = "/tmp/sf/100mb-20000-25per/tree/files"

// maxFiles is how many files of the tree the benchmark reads.
const maxFiles = 400

type sample struct {
	path, name string
	data       []byte
}

func samples(b *testing.B) []sample {
	root := os.Getenv("TEXTREAD_TREE")
	if root == "" {
		root = defaultTree
	}
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && extract.IsTarget(d.Name()) {
			if k, _ := extract.KindOf(d.Name()); k == extract.KindText {
				paths = append(paths, p)
			}
		}
		return nil
	})
	if err != nil || len(paths) == 0 {
		b.Skipf("no text files under %s (generate them with bench/small-files.sh): %v", root, err)
	}
	sort.Strings(paths)
	// Every n-th file, so that each kind of the tree's files is in.
	step := max(1, len(paths)/maxFiles)
	var out []sample
	for i := 0; i < len(paths) && len(out) < maxFiles; i += step {
		data, err := os.ReadFile(paths[i])
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, sample{path: paths[i], name: filepath.Base(paths[i]), data: data})
	}
	return out
}

func totalBytes(ss []sample) (n int64) {
	for _, s := range ss {
		n += int64(len(s.data))
	}
	return n
}

// inline makes what the worker answers for an inline result
// (worker.handle): the places normalized and encoded into frame, the
// buffer of the file before when it is large enough.
func inline(b *testing.B, res *extract.Result, frame []byte) []byte {
	places, size, err := content.NormalizePlaces(res.Places)
	if err != nil {
		b.Fatal(err)
	}
	if int64(cap(frame)) < size+256 {
		frame = make([]byte, 0, size+256)
	}
	return content.AppendPlaces(frame[:0], places)
}

// BenchmarkTextPath runs the text reader on each file's bytes, as the
// router hands them over (extract.Options.Data), and builds the inline
// answer.
func BenchmarkTextPath(b *testing.B) {
	ss := samples(b)
	read := extract.ReaderFor(".txt")
	ctx := context.Background()
	b.SetBytes(totalBytes(ss))
	b.ReportAllocs()
	var frame []byte
	for b.Loop() {
		for _, s := range ss {
			// The router hands over a buffer of its own per file.
			data := append([]byte(nil), s.data...)
			res, err := read(ctx, s.path, extract.Options{Data: data})
			if err != nil {
				b.Fatalf("%s: %v", s.path, err)
			}
			frame = inline(b, res, frame)
		}
	}
	b.ReportMetric(float64(len(ss)*b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkTextPathFiles runs extract.Extract on each file's path (the
// router's open and read into the worker's read buffer, the reader, the
// line cap) and builds the inline answer.
func BenchmarkTextPathFiles(b *testing.B) {
	ss := samples(b)
	ctx := context.Background()
	b.SetBytes(totalBytes(ss))
	b.ReportAllocs()
	var frame []byte
	// The worker's read buffer (worker.Serve).
	readBuffer := make([]byte, 64<<10)
	for b.Loop() {
		for _, s := range ss {
			res, err := extract.Extract(ctx, s.path, s.name, extract.Options{ReadBuffer: readBuffer})
			if err != nil {
				b.Fatalf("%s: %v", s.path, err)
			}
			frame = inline(b, res, frame)
		}
	}
	b.ReportMetric(float64(len(ss)*b.N)/b.Elapsed().Seconds(), "files/s")
}
