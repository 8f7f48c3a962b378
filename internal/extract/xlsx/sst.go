package xlsx

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
)

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
func readStrings(ctx context.Context, p *ooxml.Pkg, part, scratch string) (*xlStrings, error) {
	s := &xlStrings{scratch: scratch}
	rc, err := p.Open(part)
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
