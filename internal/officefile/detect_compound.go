package officefile

import (
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
)

// The compound-file side of Detect: directory names and the first bytes of
// root-level streams, read through package cfb, whose parse the native
// readers share (DetectCompound).

// hasName reports whether any stream or storage is called name (ignoring
// case, as MS-CFB compares names; control prefixes such as \x06 included).
func hasName(c *cfb.File, name string) bool {
	for i := range c.Entries {
		e := &c.Entries[i]
		if (e.Type == cfb.TypeStream || e.Type == cfb.TypeStorage) && strings.EqualFold(e.RawName(), name) {
			return true
		}
	}
	return false
}

// rootStreamNamed finds a stream that is a direct child of the root storage.
func rootStreamNamed(c *cfb.File, name string) (*cfb.Entry, bool) {
	if len(c.Entries) == 0 || c.Entries[0].Type != cfb.TypeRoot {
		return nil, false
	}
	for _, n := range c.Nodes {
		e := &c.Entries[n.ID]
		if n.Parent == 0 && e.Type == cfb.TypeStream && strings.EqualFold(e.RawName(), name) {
			return e, true
		}
	}
	return nil, false
}

// readStream returns the first min(n, size) bytes of a stream.
func readStream(c *cfb.File, e *cfb.Entry, n int) ([]byte, error) {
	s := c.Stream(e)
	b := make([]byte, min(int64(n), s.Size()))
	if len(b) == 0 {
		return b, nil
	}
	if _, err := s.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}
