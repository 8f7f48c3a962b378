package xlsx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// spillBytes is the size from which the shared strings move from memory
// to a file in the scratch folder.
var spillBytes = 64 << 20

// xlStrings is the shared string table: the non-empty strings back to
// back in one arena, in memory or (for big tables, when a scratch folder
// is given) in a file read back with ReadAt, so a huge table does not stay
// in memory. Its size follows the text, not the count of strings: an
// empty string costs one bit of present (plus a rank every 64 strings),
// a non-empty one its bytes and a 4-byte end offset. A table of millions
// of empty <si/> (a few KB compressed) therefore stays a few MB.
type xlStrings struct {
	n       int      // strings added
	present []uint64 // bit i%64 of word i/64: string i is not empty
	ranks   []uint32 // non-empty strings before word w
	ends    []uint32 // arena end offset of each non-empty string
	buf     []byte   // arena bytes not yet in file
	file    *os.File
	flushed int64 // bytes of the arena already in file
	scratch string
}

// maxArena is the largest arena the 4-byte offsets address.
const maxArena = math.MaxUint32

func (s *xlStrings) add(v string) error {
	w, bit := s.n/64, uint(s.n%64)
	if bit == 0 {
		s.present = append(doubled(s.present, 1), 0)
		s.ranks = append(doubled(s.ranks, 1), uint32(len(s.ends)))
	}
	s.n++
	if v == "" {
		return nil
	}
	end := s.flushed + int64(len(s.buf)) + int64(len(v))
	if end > maxArena {
		return &ooxml.SizeError{Kind: "part", Part: "shared strings", Size: end, Cap: maxArena}
	}
	s.present[w] |= 1 << bit
	s.buf = append(doubled(s.buf, len(v)), v...)
	s.ends = append(doubled(s.ends, 1), uint32(end))
	if len(s.buf) < spillBytes || s.scratch == "" {
		return nil
	}
	if s.file == nil {
		// The worker makes no scratch folder for a file that uses none.
		f, err := os.CreateTemp(s.scratch, "xlsx-sst-*.bin")
		if errors.Is(err, fs.ErrNotExist) && os.MkdirAll(s.scratch, 0o755) == nil {
			f, err = os.CreateTemp(s.scratch, "xlsx-sst-*.bin")
		}
		if err != nil {
			s.scratch = "" // no usable scratch folder: stay in memory
			return nil
		}
		s.file = f
	}
	return s.flush()
}

// doubled returns b with room for n more elements, doubling its capacity
// when it must grow: append grows large slices by a quarter, so a table
// built by append allocates about five times its final size on the way,
// doubling about twice.
func doubled[T any](b []T, n int) []T {
	if len(b)+n <= cap(b) {
		return b
	}
	c := max(2*cap(b), len(b)+n, 64)
	nb := make([]T, len(b), c)
	copy(nb, b)
	return nb
}

func (s *xlStrings) flush() error {
	if s.file == nil || len(s.buf) == 0 {
		return nil
	}
	if _, err := s.file.Write(s.buf); err != nil {
		return fmt.Errorf("shared strings spill file: %w", err)
	}
	s.flushed += int64(len(s.buf))
	s.buf = s.buf[:0]
	return nil
}

// get returns string i; ok is false for an index outside the table.
func (s *xlStrings) get(i int) (string, bool, error) {
	if i < 0 || i >= s.n {
		return "", false, nil
	}
	w, bit := i/64, uint(i%64)
	if s.present[w]&(1<<bit) == 0 {
		return "", true, nil
	}
	r := int(s.ranks[w]) + bits.OnesCount64(s.present[w]&(1<<bit-1))
	start := int64(0)
	if r > 0 {
		start = int64(s.ends[r-1])
	}
	end := int64(s.ends[r])
	if s.file == nil {
		return string(s.buf[start:end]), true, nil
	}
	if start >= s.flushed {
		return string(s.buf[start-s.flushed : end-s.flushed]), true, nil
	}
	b := make([]byte, end-start)
	if _, err := s.file.ReadAt(b, start); err != nil {
		return "", false, fmt.Errorf("shared strings spill file: %w", err)
	}
	return string(b), true, nil
}

// close removes the spill file.
func (s *xlStrings) close() {
	if s.file != nil {
		name := s.file.Name()
		s.file.Close()
		os.Remove(name)
		s.file = nil
	}
}

// readStrings streams the shared string table (xl/sharedStrings.xml):
// each si is the concatenation of its t elements outside rPh (phonetic
// guides), with _xHHHH_ escapes decoded.
func readStrings(ctx context.Context, p *ooxml.Pkg, part, scratch string) (*xlStrings, error) {
	s := &xlStrings{scratch: scratch}
	rc, err := p.Open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d, err := xmlscan.NewScanner(rc, p.Lim.XMLDepth)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", part, err)
	}
	for {
		err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("parse %s: %w", part, err)
		}
		if d.Kind != xmlscan.Start || string(d.Name) != "si" {
			continue
		}
		if s.n%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				s.close()
				return nil, err
			}
		}
		v, err := sheet.RichText(d)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("parse %s: %w", part, err)
		}
		if err := s.add(v); err != nil {
			s.close()
			return nil, err
		}
	}
	if err := s.flush(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}
