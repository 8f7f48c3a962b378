package content

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// SourceName is the file of a per-file folder that records the source
// file's modification time and size as crawled when it was ingested. The
// worker writes it into the staging folder with the place TSVs
// (worker.Request.ModTime), fsynced like them, before the swap; the body
// index copies it into its file table, and search compares it with the
// file on disk (issue 18: a hit whose file changed or was deleted since it
// was indexed is marked).
//
// Format: UTF-8 without BOM, one line ended by LF:
//
//	<modification time, Unix nanoseconds> <size in bytes>
//
// e.g. `1764614400000000000 18432`. A missing or malformed file reads as
// unknown (zero Source): folders written before it existed still publish.
const SourceName = ".source"

// Source is a source file's modification time and size as indexed.
type Source struct {
	ModTime time.Time
	Size    int64
}

// WriteSource writes dir's .source (dir is a staging folder, not yet
// swapped in).
func WriteSource(dir string, s Source) error {
	line := strconv.FormatInt(s.ModTime.UnixNano(), 10) + " " + strconv.FormatInt(s.Size, 10) + "\n"
	if err := workspace.WriteNewFile(filepath.Join(dir, SourceName), func(w *bufio.Writer) { w.WriteString(line) }); err != nil {
		return fmt.Errorf("content: write %s: %w", filepath.Join(dir, SourceName), err)
	}
	return nil
}

// ReadSource reads dir's .source; ok is false when it is missing or
// malformed.
func ReadSource(dir string) (s Source, ok bool) {
	data, err := os.ReadFile(filepath.Join(dir, SourceName))
	if err != nil || len(data) > 64 {
		return Source{}, false
	}
	a, b, found := strings.Cut(strings.TrimSuffix(string(data), "\n"), " ")
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
