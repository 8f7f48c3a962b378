package cfb

import (
	"fmt"
	"io"
)

// Stream reads one stream: an io.Reader from its start and an
// io.ReaderAt. A stream under MiniCutoff bytes lies in 64-byte sectors of
// the mini stream, chained by the mini FAT; a larger one in sectors
// chained by the FAT. The chain is resolved lazily, at most as far as the
// file is long, and a read first resolves every sector it needs (one
// past the last when it ends on a sector boundary), then reads them: a
// chain that breaks fails the read with nothing read, a sector past the
// end of the file fails it with the bytes before. These are mscfb's
// verdicts, so damaged files extract as they did.
type Stream struct {
	f     *File
	size  int64
	mini  bool
	ss    int64    // 64 or the sector size
	chain []uint32 // sectors resolved so far; chain[0] is the start
	err   error    // why the chain cannot be resolved past its end
	pos   int64    // of Read
}

// Stream returns the stream of entry e.
func (f *File) Stream(e *Entry) *Stream {
	s := &Stream{f: f, size: f.StreamSize(e), ss: f.ss, chain: []uint32{e.Start}}
	if s.size < MiniCutoff {
		s.mini, s.ss = true, miniSector
	}
	return s
}

// Size returns the stream's declared size.
func (s *Stream) Size() int64 { return s.size }

// Read reads the stream from where the last Read ended.
func (s *Stream) Read(p []byte) (int, error) {
	n, err := s.ReadAt(p, s.pos)
	s.pos += int64(n)
	return n, err
}

// ReadAt reads len(p) bytes at off, fewer with io.EOF at the end of the
// stream.
func (s *Stream) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("cfb: read at %d", off)
	}
	if s.size < 1 || off >= s.size {
		return 0, io.EOF
	}
	sz := int(min(int64(len(p)), s.size-off))
	if off+int64(sz) > s.f.size {
		return 0, fmt.Errorf("%w: %d bytes at %d of a stream in a file of %d", ErrFormat, sz, off, s.f.size)
	}
	if err := s.resolve(int((off + int64(sz)) / s.ss)); err != nil {
		return 0, err
	}
	first, last := off/s.ss, (off+int64(sz)-1)/s.ss
	if off%s.ss != 0 && last > first && s.chain[first+1] == EndOfChain {
		// mscfb's test when a read goes on from inside a sector.
		return 0, fmt.Errorf("%w: stream chain ends early", ErrFormat)
	}
	runs := make([][2]int64, 0, last-first+1) // file offset, length
	for k := first; k <= last; k++ {
		at, err := s.sectorOffset(s.chain[k])
		if err != nil {
			return 0, err
		}
		lo, hi := int64(0), s.ss
		if k == first {
			lo = off % s.ss
		}
		if k == last {
			hi = (off+int64(sz)-1)%s.ss + 1
		}
		if n := len(runs); n > 0 && runs[n-1][0]+runs[n-1][1] == at+lo {
			runs[n-1][1] += hi - lo
		} else {
			runs = append(runs, [2]int64{at + lo, hi - lo})
		}
	}
	n := 0
	for _, r := range runs {
		got, err := s.f.r.ReadAt(p[n:n+int(r[1])], r[0])
		n += got
		if err != nil {
			return n, fmt.Errorf("cfb: read stream bytes at %d: %w", r[0], err)
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// resolve makes s.chain hold at least k+1 sectors.
func (s *Stream) resolve(k int) error {
	for len(s.chain) <= k {
		if s.err != nil {
			return s.err
		}
		if int64(len(s.chain))*s.ss > s.f.size {
			s.err = fmt.Errorf("%w: stream chain longer than the file", ErrFormat)
			continue
		}
		last := s.chain[len(s.chain)-1]
		var next uint32
		var err error
		if s.mini {
			next, err = s.f.miniNext(last)
		} else {
			next, err = s.f.next(last)
		}
		if err != nil {
			s.err = err
			continue
		}
		s.chain = append(s.chain, next)
	}
	return nil
}

// sectorOffset returns where sector sec of the stream starts in the file.
func (s *Stream) sectorOffset(sec uint32) (int64, error) {
	if !s.mini {
		return s.f.offset(sec), nil
	}
	per := uint32(s.f.ss / miniSector)
	i := sec / per
	if int64(i) >= int64(len(s.f.miniStream)) {
		return 0, fmt.Errorf("%w: mini sector %d outside the mini stream", ErrFormat, sec)
	}
	return s.f.offset(s.f.miniStream[i]) + int64(sec%per)*miniSector, nil
}
