package cfb

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/officefile"
	"github.com/richardlehane/mscfb"
)

// The compound-file (MS-CFB) side of the native Word and PowerPoint
// readers: open the file, refuse encrypted ones before anything is parsed
// (package officefile, reference/extraction.md §10), and read whole
// root-level streams with their sizes checked before any allocation.

// errNotCompound is the cause when a .doc or .ppt is not a compound file
// (RTF, HTML, text or a ZIP named .doc): the native readers leave it to the
// converter.
var errNotCompound = errors.New("extract: not a compound file")

// compound is an open MS-CFB file, or a compound file embedded in one.
type Compound struct {
	closer  io.Closer
	size    int64
	streams map[string]*mscfb.File // streams by lower-case path ("objectpool/_12/workbook")
	folders map[string]bool        // lower-case paths of storages holding streams, "/"-terminated
	limit   int64                  // bytes one stream may hold
	Read    *int64                 // bytes of streams read so far, shared with embedded files
}

// memoryFile is the largest file read into memory before the compound
// file is parsed (sector walks then cost no system calls).
const memoryFile = 64 << 20

// OpenCompound opens path, classifies its protection and lists its
// streams. Password and Rights fail with their fixed messages; a file that
// is not a compound file fails with errNotCompound in the chain.
func OpenCompound(path string, lim extract.Limits) (*Compound, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, extract.Corrupt(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, extract.Corrupt(err)
	}
	size := st.Size()
	if err := CheckProtection(f, size); err != nil {
		f.Close()
		return nil, err
	}
	if size <= memoryFile {
		b := make([]byte, size)
		_, err := io.ReadFull(io.NewSectionReader(f, 0, size), b)
		f.Close()
		if err != nil {
			return nil, extract.Corrupt(err)
		}
		var read int64
		c, err := NewCompound(MemFile{B: b, Short: io.ErrUnexpectedEOF}, size, lim, &read)
		if err != nil {
			return nil, extract.Corrupt(err)
		}
		return c, nil
	}
	var read int64
	c, err := NewCompound(f, size, lim, &read)
	if err != nil {
		f.Close()
		return nil, extract.Corrupt(err)
	}
	c.closer = f
	return c, nil
}

// OpenCompoundBytes is OpenCompound for a file held in memory.
func OpenCompoundBytes(data []byte, lim extract.Limits) (*Compound, error) {
	if err := CheckProtection(MemFile{B: data, Short: io.ErrUnexpectedEOF}, int64(len(data))); err != nil {
		return nil, err
	}
	var read int64
	c, err := NewCompound(MemFile{B: data, Short: io.ErrUnexpectedEOF}, int64(len(data)), lim, &read)
	if err != nil {
		return nil, extract.Corrupt(err)
	}
	return c, nil
}

// CheckProtection refuses encrypted files and anything but a compound file.
func CheckProtection(r io.ReaderAt, size int64) error {
	d, err := officefile.Detect(r, size)
	if err != nil {
		return extract.Corrupt(err)
	}
	switch d.Protection {
	case officefile.Password:
		return extract.Fail(extract.MsgPassword, errors.New(d.Reason))
	case officefile.Rights:
		return extract.Fail(extract.MsgRights, errors.New(d.Reason))
	}
	if d.Format != officefile.FormatCFB {
		return extract.Corrupt(fmt.Errorf("%w (%s)", errNotCompound, d.Format))
	}
	return nil
}

// NewCompound parses the compound file in ra and lists its streams; read
// counts the stream bytes read, across a file and its embedded files.
func NewCompound(ra io.ReaderAt, size int64, lim extract.Limits, read *int64) (*Compound, error) {
	r, err := mscfb.New(ra)
	if err != nil {
		return nil, err
	}
	c := &Compound{size: size, limit: lim.ZipPartBytes, Read: read, streams: map[string]*mscfb.File{}, folders: map[string]bool{}}
	for _, e := range r.File {
		if e.FileInfo().IsDir() {
			continue
		}
		k := strings.ToLower(strings.Join(append(append([]string{}, e.Path...), e.Name), "/"))
		if _, dup := c.streams[k]; !dup {
			c.streams[k] = e
		}
		if len(e.Path) > 0 {
			c.folders[strings.ToLower(strings.Join(e.Path, "/"))+"/"] = true
		}
	}
	return c, nil
}

// Close closes the file when it was not read into memory.
func (c *Compound) Close() error {
	if c.closer != nil {
		return c.closer.Close()
	}
	return nil
}

// has reports whether a stream is at path (names separated by "/",
// ignoring case).
func (c *Compound) Has(path string) bool {
	_, ok := c.streams[strings.ToLower(path)]
	return ok
}

// hasStorage reports whether a storage directly holds streams; prefix is
// its lower-case path ending in "/".
func (c *Compound) HasStorage(prefix string) bool { return c.folders[prefix] }

// stream reads a whole stream. Its declared size must fit in the file and
// in the per-stream limit, and all streams read from one file together
// stay under three times the limit.
func (c *Compound) Stream(path string) ([]byte, error) {
	e, ok := c.streams[strings.ToLower(path)]
	if !ok {
		return nil, fmt.Errorf("stream %q missing", path)
	}
	n := e.Size
	switch {
	case n < 0 || n > c.size:
		return nil, fmt.Errorf("stream %q declares %d bytes in a file of %d", path, n, c.size)
	case n > c.limit || *c.Read+n > 3*c.limit:
		return nil, &extract.Error{
			Msg:   extract.MsgTooLarge,
			Cause: fmt.Errorf("stream %q has %d bytes, limit %d", path, n, c.limit),
			Log:   []string{fmt.Sprintf("    ストリームが大きすぎます: %s（%d バイト、上限 %d バイト）", path, n, c.limit)},
		}
	}
	*c.Read += n
	buf := make([]byte, n)
	got, err := io.ReadFull(e, buf)
	if err != nil {
		return nil, fmt.Errorf("read stream %q at byte %d: %w", path, got, err)
	}
	return buf, nil
}

// readAt reads n bytes at off of a stream without reading the rest; n is
// at most 64 KiB.
func (c *Compound) ReadAt(path string, off int64, n int) ([]byte, error) {
	e, ok := c.streams[strings.ToLower(path)]
	if !ok {
		return nil, fmt.Errorf("stream %q missing", path)
	}
	if off < 0 || n < 0 || n > 1<<16 || off+int64(n) > e.Size || e.Size > c.size {
		return nil, fmt.Errorf("stream %q: %d bytes at %d out of range", path, n, off)
	}
	buf := make([]byte, n)
	if n == 0 {
		return buf, nil
	}
	if _, err := e.ReadAt(buf, off); err != nil {
		return nil, fmt.Errorf("read stream %q at %d: %w", path, off, err)
	}
	return buf, nil
}

// MemFile is a compound file held in memory; Slice lets mscfb read
// sectors without copying them. A Slice past the end fails with short,
// whose text mscfb puts in its error and so in the failure's detail: the
// .doc and .ppt readers use io.ErrUnexpectedEOF ("slicer read error
// (unexpected EOF)", pinned by golden files), the .xls reader io.EOF.
type MemFile struct {
	B     []byte
	Short error
}

func (m MemFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(m.B)) {
		return 0, io.EOF
	}
	n := copy(p, m.B[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m MemFile) Slice(off int64, l int) ([]byte, error) {
	if off < 0 || l < 0 || off+int64(l) > int64(len(m.B)) {
		return nil, m.Short
	}
	return m.B[off : off+int64(l)], nil
}
