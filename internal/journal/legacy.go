package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/workspace"
)

// maxLegacyBytes bounds how much of ingesting.txt is read. The file lists
// the files in flight (a few dozen lines); what lies beyond is ignored.
const maxLegacyBytes = 16 << 20

// ReadLegacyIngesting reads work/ingesting.txt, the in-flight file of
// earlier versions (reference/indexing.md §10): lines
// `<count><TAB><relative path>`. A line counts only with exactly two fields,
// a count of ASCII digits ≥ 1 and a relative path that passes the ingest
// list's name rules (seed: 「ingesting.txt の行も同じ確かめを通す」);
// anything else is ignored. The text may be UTF-8 with or without a BOM,
// or UTF-16 LE or BE with a BOM; lines may end in CRLF or LF, and the last
// one need not end at all (the file was rewritten whole, not appended).
// Lines that are not valid text in that encoding (for example ANSI code page
// bytes) are ignored. When a path appears more than once (compared
// case-insensitively), the later line wins; jobs keep the order in which
// their paths first appear.
//
// The caller adds the jobs to the jobs to redo once, then removes the file
// after the new journal is written (seed: readLegacyIngesting,
// removeLegacyIngesting).
func ReadLegacyIngesting(r io.Reader) []Job {
	b, _ := io.ReadAll(io.LimitReader(r, maxLegacyBytes))
	var order []string
	jobs := map[string]Job{}
	for line := range strings.SplitSeq(decodeText(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		count, path, ok := strings.Cut(line, "\t")
		if !ok || strings.Contains(path, "\t") {
			continue
		}
		n, ok := parseCount(count)
		if !ok || n < 1 || !utf8.ValidString(path) || !validPath(path, minFileSegments) {
			continue
		}
		key := workspace.FoldKey(path)
		if _, seen := jobs[key]; !seen {
			order = append(order, key)
		}
		jobs[key] = Job{RelPath: path, Count: n}
	}
	var out []Job
	for _, key := range order {
		out = append(out, jobs[key])
	}
	return out
}

// ReadLegacyIngestingFile reads the ingesting.txt at path. A missing file
// gives no jobs and no error.
func ReadLegacyIngestingFile(path string) ([]Job, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w", path, err)
	}
	defer f.Close()
	// Read errors matter here: a partly read file would lose counts.
	b, err := io.ReadAll(io.LimitReader(f, maxLegacyBytes))
	if err != nil {
		return nil, fmt.Errorf("journal: read %s: %w", path, err)
	}
	return ReadLegacyIngesting(bytes.NewReader(b)), nil
}

// decodeText turns bytes into text by their BOM: UTF-8 (or no BOM, read as
// UTF-8; invalid sequences are left for the caller to reject), UTF-16 LE or
// BE. An odd trailing byte of UTF-16 is dropped.
func decodeText(b []byte) string {
	var be bool
	switch {
	case bytes.HasPrefix(b, []byte(bom)):
		return string(b[len(bom):])
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		be = false
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		be = true
	default:
		return string(b)
	}
	b = b[2:]
	u := make([]uint16, len(b)/2)
	for i := range u {
		if be {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}
