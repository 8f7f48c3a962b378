package ingestlist

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// ExpectedName is the file, beside ingest_status.tsv, that lists the files
// whose failure the user expects (a password-protected workbook, a
// damaged file kept on purpose): the ［無視する］ of the index page
// (issue 18). Such a failure stays a failure in the ingest list (the seed's
// rows are not changed), is shown apart, and does not count in its
// index's state or in the navigation badge. The mark is by relative path
// and survives every run; a file that is ingested later is simply no
// longer a failure.
//
// Format: UTF-8 with BOM, CRLF, one relative path of the ingest list per
// line (`<index>\<path>`), sorted case-insensitively, no header. Blank
// lines and paths that ValidRelPath refuses are skipped when read.
const ExpectedName = "expected_failures.tsv"

// ExpectedPath returns where the list lives for the ingest list at
// ingestList.
func ExpectedPath(ingestList string) string {
	return filepath.Join(filepath.Dir(ingestList), ExpectedName)
}

// Expected is the set of files marked as expected failures.
type Expected struct {
	paths map[string]string // Key (FoldKey) → path as marked
}

// Has reports whether rel is marked.
func (e *Expected) Has(rel string) bool {
	if e == nil {
		return false
	}
	_, ok := e.paths[workspace.FoldKey(rel)]
	return ok
}

// Len returns the number of marked files.
func (e *Expected) Len() int {
	if e == nil {
		return 0
	}
	return len(e.paths)
}

// Set marks (on) or unmarks rel.
func (e *Expected) Set(rel string, on bool) {
	if e.paths == nil {
		e.paths = map[string]string{}
	}
	if on {
		e.paths[workspace.FoldKey(rel)] = rel
	} else {
		delete(e.paths, workspace.FoldKey(rel))
	}
}

// ReadExpected reads the list at path; a missing file is an empty list.
func ReadExpected(path string) (*Expected, error) {
	e := &Expected{paths: map[string]string{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return e, nil
	}
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line != "" && ValidRelPath(line) {
			e.Set(line, true)
		}
	}
	return e, nil
}

// WriteExpected writes the list to path (workspace.WriteFileAtomic); an
// empty list removes the file.
func WriteExpected(path string, e *Expected) error {
	if e.Len() == 0 {
		return workspace.Remove(path)
	}
	keys := slices.Sorted(maps.Keys(e.paths)) // FoldKeys: sorted case-insensitively
	var b bytes.Buffer
	b.WriteString("\uFEFF")
	for _, k := range keys {
		b.WriteString(e.paths[k] + "\r\n")
	}
	return workspace.WriteFileAtomic(path, b.Bytes())
}
