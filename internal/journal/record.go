package journal

import (
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// FormatVersion is the value of the journal's leading 版 record. A journal
// with another value (or none) is discarded unread (seed, ジャーナルの形:
// 「版が違えば、読まずに捨てる」).
//
// History:
//
//	"2"  the seed's journal: 版 回 持 始 出 未 書 終 (ingest-list.ja.md). Earlier
//	     values belong to journals of earlier tebunko versions and are discarded.
const FormatVersion = "2"

// Kind is the first column of a journal line: the kind of record.
type Kind string

// Record kinds (seed ingest-list.ja.md, ジャーナルの形: 「種類・列・書くとき」).
const (
	KindVersion     Kind = "版" // format version (FormatVersion); the file's first line
	KindRun         Kind = "回" // date time, data rows of the ingest list after its rewrite
	KindCarried     Kind = "持" // relative path, count: carried job not handed out yet
	KindStart       Kind = "始" // relative path, count: job handed to a worker (count includes this start)
	KindPublished   Kind = "出" // folder relative to store/content, published to the body index
	KindUnpublished Kind = "未" // folder carried unpublished from an earlier run (right after 回)
	KindRewriting   Kind = "書" // before the ingest list is rewritten one row per file
	KindEnded       Kind = "終" // after the rewrite finished (end of the run)
	// KindPublishing is fumibako's own (issue 36), which the seed's
	// readers skip as an unknown kind: folder, count. Written before a
	// folder's publish begins, count is the number of publishes of that
	// folder in a row that the process did not come back from, this one
	// included should it not (as 始 counts a job's starts); written with
	// the count before it when a publish came back without a 出 (a
	// workspace fault), so that it does not count (0 when none did).
	KindPublishing Kind = "試"
)

// fieldCount is the number of columns after the kind that each known record
// kind needs. Extra columns are ignored; fewer make the line malformed.
var fieldCount = map[Kind]int{
	KindVersion:     1,
	KindRun:         2,
	KindCarried:     2,
	KindStart:       2,
	KindPublished:   1,
	KindUnpublished: 1,
	KindRewriting:   0,
	KindEnded:       0,
	KindPublishing:  2,
}

// Record is one journal line: its kind and the columns after it, exactly as
// many as the kind needs (extra columns dropped).
type Record struct {
	Kind   Kind
	Fields []string
}

// Job is a file to ingest: its relative path in the ingest list's form
// (`<index name>\<path under the crawl root>`, `\` separators) and the
// number of consecutive starts that were interrupted (seed: 回数).
type Job struct {
	RelPath string
	Count   int
}

// dateTimeLayout is the 回 record's date time, `yyyy/MM/dd HH:mm:ss` as in
// the ingest list (seed, formatFileTime).
const dateTimeLayout = "2006/01/02 15:04:05"

const (
	bom  = "\uFEFF"
	crlf = "\r\n"
)

// maxDigits bounds a count read from a file (nine digits), so parsing never
// overflows.
const maxDigits = 9

// parseCount parses a count column: ASCII digits only (no sign, no spaces),
// at most nine of them. ok is false for anything else.
func parseCount(s string) (n int, ok bool) {
	if s == "" || len(s) > maxDigits {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// validPath reports whether p is a `\`-separated relative path of at least
// min segments, each passing workspace.TestStoredIndexName (DESIGN.md
// "Names": the index name and the segments after it obey the same rules).
// This keeps `..`, empty segments, TAB, CR, LF and control characters out,
// so nothing read from the journal can name a folder outside store/content.
func validPath(p string, min int) bool {
	n := 0
	for seg := range strings.SplitSeq(p, `\`) {
		if !workspace.TestStoredIndexName(seg) {
			return false
		}
		n++
	}
	return n >= min
}

// Minimum segments: a file's relative path is `<index>\<name>` at least; a
// folder is at least the index's top folder `<index>`.
const (
	minFileSegments   = 2
	minFolderSegments = 1
)

// FolderOf returns the folder of a relative path: everything before the last
// `\` (`営業\2024\見積\A社.xlsx` → `営業\2024\見積`, `営業\A.xlsx` → `営業`).
// It is the folder a 始 record leaves unpublished.
func FolderOf(relPath string) string {
	if i := strings.LastIndexByte(relPath, '\\'); i >= 0 {
		return relPath[:i]
	}
	return ""
}

// parseRecord turns one line (BOM, CR and LF already removed) into a record.
// ok is false for unknown kinds, missing columns, bad counts or paths.
func parseRecord(line string) (Record, bool) {
	cols := strings.Split(line, "\t")
	kind := Kind(cols[0])
	need, known := fieldCount[kind]
	if !known || len(cols)-1 < need {
		return Record{}, false
	}
	fields := cols[1 : 1+need : 1+need]
	switch kind {
	case KindVersion:
		if fields[0] == "" {
			return Record{}, false
		}
	case KindRun:
		if _, ok := parseCount(fields[1]); !ok {
			return Record{}, false
		}
	case KindCarried, KindStart:
		if n, ok := parseCount(fields[1]); !ok || n < 1 || !validPath(fields[0], minFileSegments) {
			return Record{}, false
		}
	case KindPublished, KindUnpublished:
		if !validPath(fields[0], minFolderSegments) {
			return Record{}, false
		}
	case KindPublishing:
		if _, ok := parseCount(fields[1]); !ok || !validPath(fields[0], minFolderSegments) {
			return Record{}, false
		}
	}
	if need == 0 {
		fields = nil
	}
	return Record{Kind: kind, Fields: fields}, true
}

// count returns the count column of a 回, 持, 始 or 試 record (validated
// by parseRecord).
func (r Record) count() int {
	n, _ := parseCount(r.Fields[len(r.Fields)-1])
	return n
}

// appendLine appends the record as one journal line with its CRLF.
func (r Record) appendLine(b []byte) []byte {
	b = append(b, r.Kind...)
	for _, f := range r.Fields {
		b = append(b, '\t')
		b = append(b, f...)
	}
	return append(b, crlf...)
}
