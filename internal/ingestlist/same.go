package ingestlist

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
)

// WriteFileIfChanged rewrites the ingest list at path as WriteFile does,
// unless the file already holds exactly the bytes WriteFile would write:
// then it is left alone, its time and inode too (an unchanged rerun
// rewrites nothing, issue 21; readers that watch the list's time, such as
// the web UI's list cache, then read nothing again). A crash cannot tell
// the two apart: either way the file holds the new list whole. wrote
// reports a rewrite.
func WriteFileIfChanged(path string, folders []Folder, rows []Row) (wrote bool, err error) {
	if err := checkRows(rows); err != nil {
		return false, WriteFile(path, folders, rows) // gives the error
	}
	if Same(path, folders, rows) {
		return false, nil
	}
	return true, WriteFile(path, folders, rows)
}

// Same reports whether the file at path holds exactly what Write writes
// for folders and rows. It encodes the list in pieces and compares each
// with the file as it reads on, stopping at the first difference, so it
// holds no second copy of the list. An unreadable or missing file is not
// the same.
func Same(path string, folders []Folder, rows []Row) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	c := &comparer{r: bufio.NewReaderSize(f, 64<<10)}
	if err := write(c, folders, rows); err != nil {
		return false
	}
	_, err = c.r.ReadByte()
	return errors.Is(err, io.EOF) // nothing after the list
}

// errDiffers stops write at the first byte the file does not hold.
var errDiffers = errors.New("ingestlist: the file differs")

// comparer is an io.Writer that compares what is written with r.
type comparer struct {
	r   *bufio.Reader
	buf [4 << 10]byte
}

func (c *comparer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), len(c.buf))
		if _, err := io.ReadFull(c.r, c.buf[:k]); err != nil || !bytes.Equal(c.buf[:k], p[:k]) {
			return 0, errDiffers // shorter, different or unreadable
		}
		p = p[k:]
	}
	return n, nil
}
