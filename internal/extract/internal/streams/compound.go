package streams

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/officefile"
	"github.com/fumibako/fumibako/internal/officefile/cfb"
)

// errNotCompound is the cause when a .doc or .ppt is not a compound file
// (RTF, HTML, text or a ZIP named .doc): the native readers leave it to the
// converter.
var errNotCompound = errors.New("extract: not a compound file")

// File is an open MS-CFB file, or a compound file embedded in one.
type File struct {
	closer  io.Closer
	size    int64
	file    *cfb.File
	streams map[string]*cfb.Entry // streams by lower-case path ("objectpool/_12/workbook")
	folders map[string]bool       // lower-case paths of storages holding streams, "/"-terminated
	limit   int64                 // bytes one stream may hold
	Read    *int64                // bytes of streams read so far, shared with embedded files
}

// memoryFile is the largest file read into memory before the compound
// file is parsed (sector walks then cost no system calls).
const memoryFile = 64 << 20

// Open opens path, classifies its protection and lists its
// streams. Password and Rights fail with their fixed messages; a file that
// is not a compound file fails with errNotCompound in the chain.
func Open(path string, lim extract.Limits) (*File, error) {
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
	var ra io.ReaderAt = f
	if size <= memoryFile {
		b := make([]byte, size)
		_, err := io.ReadFull(io.NewSectionReader(f, 0, size), b)
		f.Close()
		if err != nil {
			return nil, extract.Corrupt(err)
		}
		ra, f = bytes.NewReader(b), nil
	}
	var read int64
	c, err := openChecked(ra, size, lim, &read)
	if err != nil {
		if f != nil {
			f.Close()
		}
		return nil, err
	}
	if f != nil {
		c.closer = f
	}
	return c, nil
}

// OpenBytes is Open for a file held in memory.
func OpenBytes(data []byte, lim extract.Limits) (*File, error) {
	var read int64
	return openChecked(bytes.NewReader(data), int64(len(data)), lim, &read)
}

// OpenEmbedded is OpenBytes for a compound file embedded in
// another, with the errors the embedded-object reader expects: a
// protection failure as an *extract.Error, a malformed container as the
// parse's own error. read counts the stream bytes read, shared with the
// file it is embedded in.
func OpenEmbedded(data []byte, lim extract.Limits, read *int64) (*File, error) {
	f, problem, err := parse(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	if problem != nil {
		return nil, problem
	}
	return newFile(f, lim, read), nil
}

// openChecked parses ra, refuses it when it is encrypted, malformed or no
// compound file, and lists its streams.
func openChecked(ra io.ReaderAt, size int64, lim extract.Limits, read *int64) (*File, error) {
	f, problem, err := parse(ra, size)
	if err != nil {
		return nil, err
	}
	if problem != nil {
		return nil, extract.Corrupt(problem)
	}
	return newFile(f, lim, read), nil
}

// parse sniffs ra, parses it once and classifies its protection from that
// parse. err refuses the file (encrypted, no compound file); problem is
// why the container cannot be read (then f is nil or unusable).
func parse(ra io.ReaderAt, size int64) (f *cfb.File, problem, err error) {
	format, err := officefile.Sniff(ra, size)
	if err != nil {
		return nil, nil, extract.Corrupt(err)
	}
	if format != officefile.FormatCFB {
		return nil, nil, extract.Corrupt(fmt.Errorf("%w (%s)", errNotCompound, format))
	}
	f, err = cfb.Open(ra, size)
	if err != nil {
		return nil, err, nil // Detect calls such a file Legacy
	}
	if err := protection(officefile.DetectCompound(f)); err != nil {
		return nil, nil, err
	}
	return f, f.Problem, nil
}

// protection refuses encrypted files.
func protection(d officefile.Detection) error {
	switch d.Protection {
	case officefile.Password:
		return extract.Fail(extract.MsgPassword, errors.New(d.Reason))
	case officefile.Rights:
		return extract.Fail(extract.MsgRights, errors.New(d.Reason))
	}
	return nil
}

// newFile lists the streams of f; read counts the stream bytes read,
// across a file and its embedded files.
func newFile(f *cfb.File, lim extract.Limits, read *int64) *File {
	c := &File{file: f, size: f.Size(), limit: lim.ZipPartBytes, Read: read, streams: map[string]*cfb.Entry{}, folders: map[string]bool{}}
	for _, n := range f.Nodes {
		e := &f.Entries[n.ID]
		if !e.IsStream() {
			continue
		}
		k := strings.ToLower(strings.Join(append(append([]string{}, n.Path...), e.Name()), "/"))
		if _, dup := c.streams[k]; !dup {
			c.streams[k] = e
		}
		if len(n.Path) > 0 {
			c.folders[strings.ToLower(strings.Join(n.Path, "/"))+"/"] = true
		}
	}
	return c
}

// Close closes the file when it was not read into memory.
func (c *File) Close() error {
	if c.closer != nil {
		return c.closer.Close()
	}
	return nil
}

// Has reports whether a stream is at path (names separated by "/",
// ignoring case).
func (c *File) Has(path string) bool {
	_, ok := c.streams[strings.ToLower(path)]
	return ok
}

// HasStorage reports whether a storage directly holds streams; prefix is
// its lower-case path ending in "/".
func (c *File) HasStorage(prefix string) bool { return c.folders[prefix] }

// Stream reads a whole stream. Its declared size must fit in the file and
// in the per-stream limit, and all streams read from one file together
// stay under three times the limit.
func (c *File) Stream(path string) ([]byte, error) {
	e, ok := c.streams[strings.ToLower(path)]
	if !ok {
		return nil, fmt.Errorf("stream %q missing", path)
	}
	n := c.file.StreamSize(e)
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
	if n == 0 {
		return buf, nil
	}
	if got, err := c.file.Stream(e).ReadAt(buf, 0); err != nil {
		return nil, fmt.Errorf("read stream %q at byte %d: %w", path, got, err)
	}
	return buf, nil
}

// ReadAt reads n bytes at off of a stream without reading the rest; n is
// at most 64 KiB.
func (c *File) ReadAt(path string, off int64, n int) ([]byte, error) {
	e, ok := c.streams[strings.ToLower(path)]
	if !ok {
		return nil, fmt.Errorf("stream %q missing", path)
	}
	if size := c.file.StreamSize(e); off < 0 || n < 0 || n > 1<<16 || off+int64(n) > size || size > c.size {
		return nil, fmt.Errorf("stream %q: %d bytes at %d out of range", path, n, off)
	}
	buf := make([]byte, n)
	if n == 0 {
		return buf, nil
	}
	if _, err := c.file.Stream(e).ReadAt(buf, off); err != nil {
		return nil, fmt.Errorf("read stream %q at %d: %w", path, off, err)
	}
	return buf, nil
}

// Storage is one storage of a compound file: the streams under Prefix
// (lower-case, ending in "/"; "" for the file's root). Package embed
// hands an embedded object to its reader as a Storage (extract.Embedded).
type Storage struct {
	File   *File
	Prefix string
}
