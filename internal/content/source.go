package content

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The source line of .places records the source file's modification time
// and size as crawled when it was ingested. The worker writes it into the
// staging folder with the place TSVs (worker.Request.ModTime, WriteStage),
// fsynced like them, before the swap; the body index copies it into its
// file table, and search compares it with the file on disk (issue 18: a
// hit whose file changed or was deleted since it was indexed is marked).
//
// Format: a line of .places (after the place file names, LF-ended):
//
//	:source <modification time, Unix nanoseconds> <size in bytes>
//
// e.g. `:source 1764614400000000000 18432`. A place file name never starts
// with `:` (FileName escapes it as %3A). Format note (issue 21, 2026-12):
// the line replaces the per-file folder's .source file (SourceName, the
// same `<ns> <size>` in a file of its own), one file and one fsync less
// per ingested file; ReadSource still reads .source in folders written
// before. A missing or malformed record reads as unknown (zero Source):
// folders written before either existed still publish.
const sourcePrefix = ":source "

// SourceName is the file that held the source record before it moved into
// .places; ReadSource reads it in per-file folders written before.
const SourceName = ".source"

// Source is a source file's modification time and size as indexed.
type Source struct {
	ModTime time.Time
	Size    int64
}

// sourceLine is s as the line of .places.
func sourceLine(s Source) string {
	return sourcePrefix + strconv.FormatInt(s.ModTime.UnixNano(), 10) + " " + strconv.FormatInt(s.Size, 10) + "\n"
}

// ReadSource reads the source record of the per-file folder dir: the
// source line of its .places, else its .source file (folders written
// before the line); ok is false when neither holds one that parses.
func ReadSource(dir string) (s Source, ok bool) {
	if m, err := os.ReadFile(filepath.Join(dir, ManifestName)); err == nil {
		if s, ok, found := manifestSource(m); found {
			return s, ok
		}
	}
	return readSourceFile(dir)
}

// manifestSource parses the first source line of the bytes of .places;
// found says whether there is one.
func manifestSource(m []byte) (s Source, ok, found bool) {
	for _, line := range strings.Split(string(m), "\n") {
		if rest, found := strings.CutPrefix(line, sourcePrefix); found {
			s, ok := parseSource(rest)
			return s, ok, true
		}
	}
	return Source{}, false, false
}

// readSourceFile reads the .source file of a per-file folder written
// before the source line.
func readSourceFile(dir string) (Source, bool) {
	data, err := os.ReadFile(filepath.Join(dir, SourceName))
	if err != nil || len(data) > 64 {
		return Source{}, false
	}
	return parseSource(strings.TrimSuffix(string(data), "\n"))
}

// parseSource parses `<ns> <size>`.
func parseSource(text string) (Source, bool) {
	a, b, found := strings.Cut(text, " ")
	if !found {
		return Source{}, false
	}
	ns, err1 := strconv.ParseInt(a, 10, 64)
	size, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || ns <= 0 || size < 0 {
		return Source{}, false
	}
	return Source{ModTime: time.Unix(0, ns), Size: size}, true
}
