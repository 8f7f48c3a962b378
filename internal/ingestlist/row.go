package ingestlist

import (
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/workspace"
)

// State is the 状態 column of a row. The values are the seed's words
// (seed/ingest-list.ja.md, 取り込み一覧, 状態); declared here once.
type State string

const (
	// Pending: waiting or interrupted; with a non-empty Error, postponed
	// (the reason is in エラー) and counted as failed.
	Pending State = "未取り込み"
	// Done: ingested; TSVCount and Version are set.
	Done State = "済"
	// Failed: the ingest failed; Error holds the cause. Skipped by the next
	// run unless the source changes or failed files are retried.
	Failed State = "失敗"
)

// Known reports whether s is one of the seed's three states. A row with an
// unknown state (a hand edit) is kept as read; it is neither done nor failed.
func (s State) Known() bool { return s == Pending || s == Done || s == Failed }

// Folder is one folder line: a crawl root (checked or not) and its index
// name. Name is empty when it is unknown (a legacy two-field line).
type Folder struct {
	Path string
	Name string
}

// Row is one data line: one source file.
//
// Empty number cells stay empty on rewrite: HasTSVCount tells an empty TSV数
// from 0, and Version 0 stands for an empty 抽出版 (which reads as version 1,
// see ExtractVersion).
type Row struct {
	// RelPath is `<index name>\<path under the crawl root>` with `\` as the
	// separator on every OS.
	RelPath string
	// Updated is the source's modification time when crawled, as
	// FormatFileTime writes it (yyyy/MM/dd HH:mm:ss). Kept as text: the next
	// run compares it with FormatFileTime of the crawled time.
	Updated string
	// Size is the source's size in bytes when crawled (never negative).
	Size  int64
	State State
	// TSVCount is the number of place TSVs written (set with Done; 0 for an
	// empty source). Meaningful only when HasTSVCount is true.
	TSVCount    int
	HasTSVCount bool
	// IngestedAt is when the file was ingested or failed, as written.
	IngestedAt string
	// Error is the failure's cause (Failed) or the reason a Pending file was
	// postponed; tabs and line breaks never appear in it (CleanError).
	Error string
	// Version is the extract version the row was built with; 0 means the
	// cell is empty.
	Version int
	// UpdatedMinutes: the list held 更新日時 without its seconds (Excel
	// re-formats 2025/01/10 12:34:56 as 2025/1/10 12:34 when it saves the
	// list again); Updated has :00 and SameUpdated compares to the minute.
	// Never written: the rewrite has the crawled time or :00.
	UpdatedMinutes bool
}

// SameUpdated reports whether the row's 更新日時 is updated, a time in
// FormatFileTime's form: equal, or in the same minute when the list held
// only minutes (UpdatedMinutes).
func (r Row) SameUpdated(updated string) bool {
	if r.Updated == updated {
		return true
	}
	const minute = len("2006/01/02 15:04")
	return r.UpdatedMinutes && len(r.Updated) == len(fileTimeLayout) && len(updated) == len(fileTimeLayout) &&
		r.Updated[:minute] == updated[:minute]
}

// Key is the case-insensitive key of the row's relative path (the seed
// compares relative paths ignoring case).
func (r Row) Key() string { return workspace.FoldKey(r.RelPath) }

// IndexName is the first segment of RelPath: the index the file belongs to.
func (r Row) IndexName() string {
	name, _ := SplitRelPath(r.RelPath)
	return name
}

// ExtractVersion is the row's extract version, an empty cell counting as 1
// (seed: 空は 1 とみなす).
func (r Row) ExtractVersion() int {
	if r.Version <= 0 {
		return 1
	}
	return r.Version
}

// Failed reports whether the row counts as failed: state 失敗, or 未取り込み
// with a reason in エラー (a postponed file). This is tebunko's
// testStatusRowFailed (index_store.ps1).
func (r Row) Failed() bool {
	return r.State == Failed || (r.State == Pending && r.Error != "")
}

// fileTimeLayout is formatFileTime's yyyy/MM/dd HH:mm:ss.
const fileTimeLayout = "2006/01/02 15:04:05"

// FormatFileTime formats a modification time as the 更新日時 column does:
// yyyy/MM/dd HH:mm:ss in local time, fractions of a second dropped
// (tebunko's formatFileTime).
func FormatFileTime(t time.Time) string {
	return t.Local().Format(fileTimeLayout)
}

// CleanError makes a message fit the エラー column: TAB, CR, LF and every
// other control character become a space, and invalid UTF-8 becomes U+FFFD
// (seed: タブ・改行はスペースにする).
func CleanError(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			b.WriteByte(' ')
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// SplitRelPath splits a relative path at its first `\` into the index name
// and the path under the crawl root (still `\`-separated). Without a `\`,
// rest is empty.
func SplitRelPath(rel string) (index, rest string) {
	if i := strings.IndexByte(rel, '\\'); i >= 0 {
		return rel[:i], rel[i+1:]
	}
	return rel, ""
}

// ValidRelPath reports whether rel is a relative path the reader accepts:
// an index name that passes workspace.TestStoredIndexName, then at least one
// more `\`-separated segment, each passing the same test (not empty, not . or
// .., no character illegal in file names, no control character, no trailing
// dot or space, at most 255 characters). DESIGN.md "Names".
func ValidRelPath(rel string) bool {
	index, rest := SplitRelPath(rel)
	if !workspace.TestStoredIndexName(index) || rest == "" {
		return false
	}
	for rest != "" {
		seg := rest
		if i := strings.IndexByte(rest, '\\'); i >= 0 {
			seg, rest = rest[:i], rest[i+1:]
			if rest == "" {
				return false // trailing separator: an empty last segment
			}
		} else {
			rest = ""
		}
		if !workspace.TestStoredIndexName(seg) {
			return false
		}
	}
	return true
}

// MakeRelPath builds a relative path from an index name and a path under its
// crawl root in the OS's form (as filepath.Rel returns it).
func MakeRelPath(index, pathUnderRoot string) string {
	p := filepath.ToSlash(pathUnderRoot)
	return index + `\` + strings.ReplaceAll(p, "/", `\`)
}

// LocalPath turns a relative path into the OS's form, for joining under a
// crawl root's parent or the content folder.
func LocalPath(rel string) string {
	return filepath.FromSlash(strings.ReplaceAll(rel, `\`, "/"))
}
