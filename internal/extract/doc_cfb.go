package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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
type compound struct {
	closer  io.Closer
	size    int64
	streams map[string]*mscfb.File // streams by lower-case path ("objectpool/_12/workbook")
	folders map[string]bool        // lower-case paths of storages holding streams, "/"-terminated
	limit   int64                  // bytes one stream may hold
	read    *int64                 // bytes of streams read so far, shared with embedded files
}

// cfbMemoryFile is the largest file read into memory before the compound
// file is parsed (sector walks then cost no system calls).
const cfbMemoryFile = 64 << 20

// openCompound opens path, classifies its protection and lists its
// streams. Password and Rights fail with their fixed messages; a file that
// is not a compound file fails with errNotCompound in the chain.
func openCompound(path string, lim Limits) (*compound, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Corrupt(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Corrupt(err)
	}
	size := st.Size()
	if err := checkProtection(f, size); err != nil {
		f.Close()
		return nil, err
	}
	if size <= cfbMemoryFile {
		b := make([]byte, size)
		_, err := io.ReadFull(io.NewSectionReader(f, 0, size), b)
		f.Close()
		if err != nil {
			return nil, Corrupt(err)
		}
		var read int64
		c, err := newCompound(memFile{b: b, short: io.ErrUnexpectedEOF}, size, lim, &read)
		if err != nil {
			return nil, Corrupt(err)
		}
		return c, nil
	}
	var read int64
	c, err := newCompound(f, size, lim, &read)
	if err != nil {
		f.Close()
		return nil, Corrupt(err)
	}
	c.closer = f
	return c, nil
}

// openCompoundBytes is openCompound for a file held in memory.
func openCompoundBytes(data []byte, lim Limits) (*compound, error) {
	if err := checkProtection(memFile{b: data, short: io.ErrUnexpectedEOF}, int64(len(data))); err != nil {
		return nil, err
	}
	var read int64
	c, err := newCompound(memFile{b: data, short: io.ErrUnexpectedEOF}, int64(len(data)), lim, &read)
	if err != nil {
		return nil, Corrupt(err)
	}
	return c, nil
}

// checkProtection refuses encrypted files and anything but a compound file.
func checkProtection(r io.ReaderAt, size int64) error {
	d, err := officefile.Detect(r, size)
	if err != nil {
		return Corrupt(err)
	}
	switch d.Protection {
	case officefile.Password:
		return Fail(MsgPassword, errors.New(d.Reason))
	case officefile.Rights:
		return Fail(MsgRights, errors.New(d.Reason))
	case officefile.Unknown:
		return Fail(MsgEncryptedOrBad, errors.New(d.Reason))
	}
	if d.Format != officefile.FormatCFB {
		return Corrupt(fmt.Errorf("%w (%s)", errNotCompound, d.Format))
	}
	return nil
}

// newCompound parses the compound file in ra and lists its streams; read
// counts the stream bytes read, across a file and its embedded files.
func newCompound(ra io.ReaderAt, size int64, lim Limits, read *int64) (*compound, error) {
	r, err := mscfb.New(ra)
	if err != nil {
		return nil, err
	}
	c := &compound{size: size, limit: lim.ZipPartBytes, read: read, streams: map[string]*mscfb.File{}, folders: map[string]bool{}}
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
func (c *compound) Close() error {
	if c.closer != nil {
		return c.closer.Close()
	}
	return nil
}

// has reports whether a stream is at path (names separated by "/",
// ignoring case).
func (c *compound) has(path string) bool {
	_, ok := c.streams[strings.ToLower(path)]
	return ok
}

// hasStorage reports whether a storage directly holds streams; prefix is
// its lower-case path ending in "/".
func (c *compound) hasStorage(prefix string) bool { return c.folders[prefix] }

// stream reads a whole stream. Its declared size must fit in the file and
// in the per-stream limit, and all streams read from one file together
// stay under three times the limit.
func (c *compound) stream(path string) ([]byte, error) {
	e, ok := c.streams[strings.ToLower(path)]
	if !ok {
		return nil, fmt.Errorf("stream %q missing", path)
	}
	n := e.Size
	switch {
	case n < 0 || n > c.size:
		return nil, fmt.Errorf("stream %q declares %d bytes in a file of %d", path, n, c.size)
	case n > c.limit || *c.read+n > 3*c.limit:
		return nil, &Error{
			Msg:   MsgTooLarge,
			Cause: fmt.Errorf("stream %q has %d bytes, limit %d", path, n, c.limit),
			Log:   []string{fmt.Sprintf("    ストリームが大きすぎます: %s（%d バイト、上限 %d バイト）", path, n, c.limit)},
		}
	}
	*c.read += n
	buf := make([]byte, n)
	got, err := io.ReadFull(e, buf)
	if err != nil {
		return nil, fmt.Errorf("read stream %q at byte %d: %w", path, got, err)
	}
	return buf, nil
}

// readAt reads n bytes at off of a stream without reading the rest; n is
// at most 64 KiB.
func (c *compound) readAt(path string, off int64, n int) ([]byte, error) {
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

// memFile is a compound file held in memory; Slice lets mscfb read
// sectors without copying them. A Slice past the end fails with short,
// whose text mscfb puts in its error and so in the failure's detail: the
// .doc and .ppt readers use io.ErrUnexpectedEOF ("slicer read error
// (unexpected EOF)", pinned by golden files), the .xls reader io.EOF.
type memFile struct {
	b     []byte
	short error
}

func (m memFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(m.b)) {
		return 0, io.EOF
	}
	n := copy(p, m.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m memFile) Slice(off int64, l int) ([]byte, error) {
	if off < 0 || l < 0 || off+int64(l) > int64(len(m.b)) {
		return nil, m.short
	}
	return m.b[off : off+int64(l)], nil
}

// nativeRecover turns a panic of a native reader into a corrupt-file
// failure, so one hostile file never takes the worker down.
func nativeRecover(res **Result, err *error) {
	if r := recover(); r != nil {
		*res = nil
		*err = Corrupt(fmt.Errorf("panic while reading: %v", r))
	}
}

// nativeFailure maps a native reader's error to the file's failure:
// *Error and cancellation as they are, anything else to the corrupt-file
// message.
func nativeFailure(err error) error {
	if err == nil {
		return nil
	}
	if f, ok := failureAsIs(err); ok {
		return f
	}
	return Corrupt(err)
}

// failureAsIs returns what the readers' error mappings (nativeFailure,
// xlsFailure, ooxmlFailure) pass on unchanged: the *Error in err's chain,
// or err itself when it is a cancellation. ok is false for any other
// error.
func failureAsIs(err error) (f error, ok bool) {
	var fe *Error
	switch {
	case errors.As(err, &fe):
		return fe, true
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err, true
	}
	return nil, false
}
