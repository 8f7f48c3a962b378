package xlsx

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

// Cell data of a workbook (worksheet XML and the shared string table) is
// what Excel itself read in the reference, outside the ZIP limits of §13
// that guard tebunko's own ZIP reading. fumibako streams these parts with
// caps of their own, so a zip bomb still fails: one part may expand to
// streamPartFactor × Limits.ZipPartBytes (1,000 MB by default, the
// reference's per-sheet stream cap) and all of them together to
// streamPartFactor × Limits.ZipTotalBytes.
const streamPartFactor = 10

// streams counts the cell-data bytes read from one workbook.
type streams struct {
	used, max int64
	partMax   int64
}

// openStream opens a cell-data part under the stream caps; a broken cap
// is a *ooxml.SizeError (MsgTooLarge).
func openStream(p *ooxml.Pkg, st *streams, name string) (io.ReadCloser, error) {
	f, ok := p.Parts[ooxml.PartKey(name)]
	if !ok {
		return nil, fmt.Errorf("open %s: %w", name, ooxml.ErrNoPart)
	}
	if f.UncompressedSize64 > uint64(st.partMax) {
		return nil, &ooxml.SizeError{Kind: "part", Part: name, Size: int64(f.UncompressedSize64), Cap: st.partMax}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	declared := int64(f.UncompressedSize64)
	return &streamReader{rc: rc, r: io.LimitReader(rc, declared+1), st: st, name: name, declared: declared}, nil
}

type streamReader struct {
	rc       io.ReadCloser
	r        io.Reader
	st       *streams
	name     string
	declared int64
	n        int64
}

func (r *streamReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.n += int64(n)
	r.st.used += int64(n)
	if r.n > r.declared {
		return n, fmt.Errorf("read %s: part longer than its declared size %d", r.name, r.declared)
	}
	if r.n > r.st.partMax {
		return n, &ooxml.SizeError{Kind: "part", Part: r.name, Size: r.n, Cap: r.st.partMax}
	}
	if r.st.used > r.st.max {
		return n, &ooxml.SizeError{Kind: "total", Part: r.name, Size: r.st.used, Cap: r.st.max}
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("read %s: %w", r.name, err)
	}
	return n, err
}

func (r *streamReader) Close() error { return r.rc.Close() }

// spillBytes is the size from which the shared strings move from memory
// to a file in the scratch folder.
var spillBytes = 64 << 20

// xlStrings is the shared string table: the strings back to back in one
// arena, in memory or (for big tables, when a scratch folder is given) in
// a file read back with ReadAt, so a huge table does not stay in memory.
type xlStrings struct {
	buf     []byte
	ends    []int64
	file    *os.File
	flushed int64 // bytes of the arena already in file
	scratch string
}

func (s *xlStrings) add(v string) error {
	s.buf = append(s.buf, v...)
	s.ends = append(s.ends, s.flushed+int64(len(s.buf)))
	if len(s.buf) < spillBytes || s.scratch == "" {
		return nil
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.scratch, "xlsx-sst-*.bin")
		if err != nil {
			s.scratch = "" // no usable scratch folder: stay in memory
			return nil
		}
		s.file = f
	}
	return s.flush()
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
	if i < 0 || i >= len(s.ends) {
		return "", false, nil
	}
	start := int64(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	end := s.ends[i]
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
func readStrings(ctx context.Context, p *ooxml.Pkg, st *streams, part, scratch string) (*xlStrings, error) {
	s := &xlStrings{scratch: scratch}
	rc, err := openStream(p, st, part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d, err := sheet.NewXlScanner(rc, p.Lim.XMLDepth)
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
		if d.Kind != sheet.ScanStart || string(d.Name) != "si" {
			continue
		}
		if len(s.ends)%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				s.close()
				return nil, err
			}
		}
		v, err := d.RichText()
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
