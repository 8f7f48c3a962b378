package cfb_test

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/richardlehane/mscfb"
)

// The native readers read compound files with mscfb before this package
// replaced it; these tests hold the replacement to mscfb's verdicts and
// bytes on every compound file of the corpus and the fixtures, whole and
// damaged, so that extraction stays byte-identical (tools/extractdiff
// checks the extraction itself).

// outcome is what a reader makes of one file: its verdict, its streams
// in walk order, and for each the bytes a whole read and a chunked
// sequential read give, with where an error stopped them.
func outcome(open func() (lister, error)) string {
	l, err := open()
	if err != nil {
		return "refused\n"
	}
	var b strings.Builder
	for _, s := range l.list() {
		fmt.Fprintf(&b, "%s %q %d dir=%v\n", strings.Join(s.path, "/"), s.name, s.size, s.dir)
		if s.dir {
			continue
		}
		buf := make([]byte, s.size)
		n, err := s.readAt(buf)
		fmt.Fprintf(&b, "  whole %d err=%v %x\n", n, err != nil, digest(buf[:n]))
		r := s.reader()
		for {
			chunk := make([]byte, 4096+17)
			n, err := r.Read(chunk)
			fmt.Fprintf(&b, "  chunk %d err=%v %x\n", n, err != nil && err != io.EOF, digest(chunk[:n]))
			if err != nil || n == 0 {
				break
			}
		}
	}
	return b.String()
}

func digest(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

type stream struct {
	path   []string
	name   string
	size   int64
	dir    bool
	readAt func([]byte) (int, error)
	reader func() io.Reader
}

type lister interface{ list() []stream }

type ours struct{ f *cfb.File }

func (o ours) list() []stream {
	var out []stream
	for _, n := range o.f.Nodes {
		e := &o.f.Entries[n.ID]
		size := min(o.f.StreamSize(e), o.f.Size())
		out = append(out, stream{path: n.Path, name: e.Name(), size: size, dir: !e.IsStream(),
			readAt: func(p []byte) (int, error) {
				if len(p) == 0 {
					return 0, nil
				}
				return o.f.Stream(e).ReadAt(p, 0)
			},
			reader: func() io.Reader { return io.LimitReader(o.f.Stream(e), size) },
		})
	}
	return out
}

type theirs struct {
	data []byte
	r    *mscfb.Reader
}

func (t theirs) list() []stream {
	var out []stream
	for i, e := range t.r.File {
		size := min(e.Size, int64(len(t.data)))
		out = append(out, stream{path: e.Path, name: e.Name, size: size, dir: e.FileInfo().IsDir(),
			readAt: func(p []byte) (int, error) { return io.ReadFull(t.fresh(i), p) },
			reader: func() io.Reader { return io.LimitReader(t.fresh(i), size) },
		})
	}
	return out
}

// fresh returns entry i of a new parse: mscfb's entries keep a read
// position.
func (t theirs) fresh(i int) *mscfb.File {
	r, _ := mscfb.New(bytes.NewReader(t.data))
	return r.File[i]
}

func openOurs(data []byte) (lister, error) {
	f, err := cfb.Open(bytes.NewReader(data), int64(len(data)))
	if err == nil {
		err = f.Problem
	}
	return ours{f}, err
}

func openTheirs(data []byte) (lister, error) {
	r, err := mscfb.New(bytes.NewReader(data))
	return theirs{data, r}, err
}

// theirOutcome is mscfb's outcome, "mscfb panicked\n" when it panics.
func theirOutcome(data []byte) (out string) {
	defer func() {
		if p := recover(); p != nil {
			out = "mscfb panicked\n"
		}
	}()
	return outcome(func() (lister, error) { return openTheirs(data) })
}

func ourOutcome(data []byte) string {
	return outcome(func() (lister, error) { return openOurs(data) })
}

// compoundFiles returns the compound files under dir; with fixtures, only
// those in testdata folders.
func compoundFiles(tb testing.TB, dir string, fixtures bool) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || fixtures && !strings.Contains(filepath.ToSlash(p), "/testdata/") {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.HasPrefix(b, cfb.Signature) {
			files[p] = b
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// variants are the damaged copies extractdiff makes, and more flips.
func variants(name string, b []byte) map[string][]byte {
	n := len(b)
	out := map[string][]byte{"whole": b, "cut25": b[:n/4], "cut50": b[:n/2], "cut90": b[:n*9/10], "cut-1": b[:n-1]}
	for _, count := range []int{1, 4, 16, 64} {
		for seed := range 8 {
			h := fnv.New64a()
			fmt.Fprintf(h, "%s/%d/%d", name, count, seed)
			r := rand.New(rand.NewPCG(h.Sum64(), 13))
			c := append([]byte(nil), b...)
			for range count {
				// Half the flips land in the first 8 KB, where the header,
				// FAT and directory usually are.
				at := r.IntN(n)
				if r.IntN(2) == 0 {
					at = r.IntN(min(n, 8192))
				}
				c[at] ^= 0xFF
			}
			out[fmt.Sprintf("flip%d.%d", count, seed)] = c
		}
	}
	return out
}

func TestSameAsMscfbFixtures(t *testing.T) {
	sameAsMscfb(t, compoundFiles(t, filepath.Join(testutil.RepoRoot(t), "internal"), true))
}

func TestSameAsMscfbCorpus(t *testing.T) {
	sameAsMscfb(t, compoundFiles(t, testutil.Corpus(t), false))
}

func sameAsMscfb(t *testing.T, files map[string][]byte) {
	if len(files) == 0 {
		t.Fatal("no compound files found")
	}
	compared, refused := 0, 0
	for name, b := range files {
		for v, data := range variants(name, b) {
			want, got := theirOutcome(data), ourOutcome(data)
			compared++
			if want == "refused\n" {
				refused++
			}
			if got != want {
				t.Errorf("%s %s:\n got: %s\nwant: %s", name, v, got, want)
			}
		}
	}
	t.Logf("%d files, %d copies compared, %d refused by both", len(files), compared, refused)
}

// BenchmarkRead opens every compound file of the corpus and the fixtures
// and reads all its streams, with this package and with mscfb.
func BenchmarkRead(b *testing.B) {
	files := compoundFiles(b, filepath.Join(testutil.RepoRoot(b), "internal"), true)
	for p, data := range compoundFiles(b, testutil.Corpus(b), false) {
		files[p] = data
	}
	b.Run("cfb", func(b *testing.B) {
		for b.Loop() {
			for _, data := range files {
				f, err := cfb.Open(bytes.NewReader(data), int64(len(data)))
				if err != nil || f.Problem != nil {
					continue
				}
				for _, n := range f.Nodes {
					if e := &f.Entries[n.ID]; e.IsStream() {
						buf := make([]byte, min(f.StreamSize(e), f.Size()))
						if len(buf) > 0 {
							f.Stream(e).ReadAt(buf, 0)
						}
					}
				}
			}
		}
	})
	b.Run("mscfb", func(b *testing.B) {
		for b.Loop() {
			for _, data := range files {
				r, err := mscfb.New(bytes.NewReader(data))
				if err != nil {
					continue
				}
				for _, e := range r.File {
					if !e.FileInfo().IsDir() {
						io.ReadFull(e, make([]byte, min(e.Size, int64(len(data)))))
					}
				}
			}
		}
	})
}
