package extract

import (
	"context"
	"fmt"
	"io"
	"os"
)

// Cell data of a workbook (worksheet XML and the shared string table) is
// what Excel itself read in the reference, outside the ZIP limits of §13
// that guard tebunko's own ZIP reading. fumibako streams these parts with
// caps of their own, so a zip bomb still fails: one part may expand to
// xlStreamPartFactor × Limits.ZipPartBytes (1,000 MB by default, the
// reference's per-sheet stream cap) and all of them together to
// xlStreamPartFactor × Limits.ZipTotalBytes.
const xlStreamPartFactor = 10

// xlStreams counts the cell-data bytes read from one workbook.
type xlStreams struct {
	used, max int64
	partMax   int64
}

// xlOpenStream opens a cell-data part under the stream caps; a broken cap
// is a *sizeError (MsgTooLarge).
func xlOpenStream(p *pkg, st *xlStreams, name string) (io.ReadCloser, error) {
	f, ok := p.parts[partKey(name)]
	if !ok {
		return nil, fmt.Errorf("open %s: %w", name, errNoPart)
	}
	if f.UncompressedSize64 > uint64(st.partMax) {
		return nil, &sizeError{Kind: "part", Part: name, Size: int64(f.UncompressedSize64), Cap: st.partMax}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	declared := int64(f.UncompressedSize64)
	return &xlStreamReader{rc: rc, r: io.LimitReader(rc, declared+1), st: st, name: name, declared: declared}, nil
}

type xlStreamReader struct {
	rc       io.ReadCloser
	r        io.Reader
	st       *xlStreams
	name     string
	declared int64
	n        int64
}

func (r *xlStreamReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.n += int64(n)
	r.st.used += int64(n)
	if r.n > r.declared {
		return n, fmt.Errorf("read %s: part longer than its declared size %d", r.name, r.declared)
	}
	if r.n > r.st.partMax {
		return n, &sizeError{Kind: "part", Part: r.name, Size: r.n, Cap: r.st.partMax}
	}
	if r.st.used > r.st.max {
		return n, &sizeError{Kind: "total", Part: r.name, Size: r.st.used, Cap: r.st.max}
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("read %s: %w", r.name, err)
	}
	return n, err
}

func (r *xlStreamReader) Close() error { return r.rc.Close() }

// xlSpillBytes is the size from which the shared strings move from memory
// to a file in the scratch folder.
var xlSpillBytes = 64 << 20

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
	if len(s.buf) < xlSpillBytes || s.scratch == "" {
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

// xlReadStrings streams the shared string table (xl/sharedStrings.xml):
// each si is the concatenation of its t elements outside rPh (phonetic
// guides), with _xHHHH_ escapes decoded.
func xlReadStrings(ctx context.Context, p *pkg, st *xlStreams, part, scratch string) (*xlStrings, error) {
	s := &xlStrings{scratch: scratch}
	rc, err := xlOpenStream(p, st, part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d, err := newXlScanner(rc, p.lim.XMLDepth)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", part, err)
	}
	for {
		err := d.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("parse %s: %w", part, err)
		}
		if d.kind != xlScanStart || string(d.name) != "si" {
			continue
		}
		if len(s.ends)%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				s.close()
				return nil, err
			}
		}
		v, err := d.richText()
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

// eachInElement calls visit for every token after the current start
// element up to and including its end; an empty element (<x/>) has none.
func (s *xlScanner) eachInElement(visit func()) error {
	if s.pendingEnd {
		return s.next() // the end of <x/>, which next returns first
	}
	target := len(s.ends) - 1
	for len(s.ends) > target {
		if err := s.next(); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
		visit()
	}
	return nil
}

// elementText returns the character data of the current start element up
// to its end (nested elements' text included).
func (s *xlScanner) elementText() (string, error) {
	s.acc = s.acc[:0]
	err := s.eachInElement(func() {
		if s.kind == xlScanText {
			s.acc = append(s.acc, s.text...)
		}
	})
	if err != nil {
		return "", err
	}
	return string(s.acc), nil
}

// richText reads the rest of a string item (si, is, or a comment's text)
// whose start element is current: the t elements outside rPh (phonetic
// guides), concatenated, with _xHHHH_ escapes decoded.
func (s *xlScanner) richText() (string, error) {
	s.acc = s.acc[:0]
	inT, rph := 0, 0
	err := s.eachInElement(func() {
		switch s.kind {
		case xlScanStart:
			switch string(s.name) {
			case "rPh":
				rph++
			case "t":
				if rph == 0 {
					inT++
				}
			}
		case xlScanEnd:
			switch string(s.name) {
			case "rPh":
				rph--
			case "t":
				if inT > 0 {
					inT--
				}
			}
		case xlScanText:
			if inT > 0 {
				s.acc = append(s.acc, s.text...)
			}
		}
	})
	if err != nil {
		return "", err
	}
	return xlUnescape(string(s.acc)), nil
}
