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

// compound is an open MS-CFB file.
type compound struct {
	f       *os.File
	size    int64
	streams map[string]*mscfb.File // root-level streams by lower-case name
	limit   int64                  // bytes one stream may hold
	read    int64                  // bytes of streams read so far
}

// openCompound opens path, classifies its protection and lists its
// root-level streams. Password and Rights fail with their fixed messages;
// a file that is not a compound file fails with errNotCompound in the chain.
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
	c := &compound{f: f, size: st.Size(), limit: lim.ZipPartBytes}
	if err := c.open(); err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}

func (c *compound) open() error {
	d, err := officefile.Detect(c.f, c.size)
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
	r, err := mscfb.New(c.f)
	if err != nil {
		return Corrupt(err)
	}
	c.streams = map[string]*mscfb.File{}
	for _, e := range r.File {
		if len(e.Path) != 0 || e.FileInfo().IsDir() {
			continue
		}
		k := strings.ToLower(e.Name)
		if _, dup := c.streams[k]; !dup {
			c.streams[k] = e
		}
	}
	return nil
}

func (c *compound) Close() error { return c.f.Close() }

// has reports whether a root-level stream is called name (ignoring case).
func (c *compound) has(name string) bool {
	_, ok := c.streams[strings.ToLower(name)]
	return ok
}

// stream reads a whole root-level stream. Its declared size must fit in
// the file and in the per-stream limit, and all streams read from one file
// together stay under three times the limit.
func (c *compound) stream(name string) ([]byte, error) {
	e, ok := c.streams[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("stream %q missing", name)
	}
	n := e.Size
	switch {
	case n < 0 || n > c.size:
		return nil, fmt.Errorf("stream %q declares %d bytes in a file of %d", name, n, c.size)
	case n > c.limit || c.read+n > 3*c.limit:
		return nil, &Error{
			Msg:   MsgTooLarge,
			Cause: fmt.Errorf("stream %q has %d bytes, limit %d", name, n, c.limit),
			Log:   []string{fmt.Sprintf("    ストリームが大きすぎます: %s（%d バイト、上限 %d バイト）", name, n, c.limit)},
		}
	}
	c.read += n
	buf := make([]byte, n)
	got, err := io.ReadFull(e, buf)
	if err != nil {
		return nil, fmt.Errorf("read stream %q at byte %d: %w", name, got, err)
	}
	return buf, nil
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
	var fe *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		return fe
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return Corrupt(err)
}
