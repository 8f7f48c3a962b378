package workspace

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// MaxNameLength is the longest index name or path segment (runes), the
// file-name component limit of Windows and most file systems.
const MaxNameLength = 255

var reservedNames = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true,
	"COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true,
	"COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true,
	"LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	// Windows reserves the superscript digits too (ISO 8859-1 ¹ ² ³).
	"COM¹": true, "COM²": true, "COM³": true, "LPT¹": true, "LPT²": true, "LPT³": true,
}

// IsReservedName reports whether Windows reads name as a device (CON, PRN,
// AUX, NUL, COM1–COM9, LPT1–LPT9), with or without an extension, in any
// case, spaces before the extension ignored: `con`, `Aux.tsv`, `NUL .x`.
// Checked the same on every OS, so a workspace moves between systems.
func IsReservedName(name string) bool {
	base := name
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	return reservedNames[strings.ToUpper(strings.TrimRight(base, " "))]
}

// TestIndexName reports whether name may be given to a new index
// (DESIGN.md "Names"): not empty, at most 255 characters, none of
// \ / : * ? " < > | or control characters, not . or .., no trailing dot or
// space, and not a reserved device name with or without an extension.
func TestIndexName(name string) bool {
	return TestStoredIndexName(name) && !IsReservedName(name)
}

// TestStoredIndexName is TestIndexName without the reserved-name rule: names
// read back from the ingest list (aux.backup made by an earlier version is
// accepted). Path segments after the index name obey the same rules.
func TestStoredIndexName(name string) bool {
	if name == "" || name == "." || name == ".." || !utf8.ValidString(name) {
		return false
	}
	if utf8.RuneCountInString(name) > MaxNameLength {
		return false
	}
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`\/:*?"<>|`, r) {
			return false
		}
	}
	return true
}

// TestPlainFolderName reports whether name cannot leave its parent when used
// as a path component: not empty, not . or .., no separator or control
// character. Trailing dots and spaces are allowed (names of earlier versions).
func TestPlainFolderName(name string) bool {
	if name == "" || name == "." || name == ".." || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' {
			return false
		}
	}
	return true
}

// ToSafeFileName swaps characters that are illegal in file names for their
// full-width look-alikes, as tebunko's toSafeFileName does
// (reference/indexing.md §3.2), and removes control characters.
func ToSafeFileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '>':
			b.WriteRune('＞')
		case '<':
			b.WriteRune('＜')
		case '\\':
			b.WriteRune('￥')
		case '*':
			b.WriteRune('＊')
		case '"':
			b.WriteRune('”')
		case ':':
			b.WriteRune('：')
		case '?':
			b.WriteRune('？')
		case '|':
			b.WriteRune('｜')
		case '/':
			b.WriteRune('／')
		default:
			if r >= 0x20 && r != 0x7f {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// UniqueName returns base, or base(2), base(3), … — the first that does not
// collide case-insensitively with taken. The base is shortened so that the
// result stays within MaxNameLength runes.
func UniqueName(base string, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	for n := 2; ; n++ {
		suffix := fmt.Sprintf("(%d)", n)
		b := []rune(base)
		if max := MaxNameLength - utf8.RuneCountInString(suffix); len(b) > max {
			b = b[:max]
		}
		name := strings.TrimRight(string(b), ". ") + suffix
		if !taken(name) {
			return name
		}
	}
}

// FoldKey is the case-insensitive key of an index name or relative path: the
// seed compares them ignoring case (ordinal, as .NET's OrdinalIgnoreCase, a
// simple per-rune upper-casing): strings.ToUpper. A name whose only
// cased runes are ASCII, as Japanese names with ASCII extensions are
// (kana and ideographs have no case), is upper-cased byte by byte, and
// returned as it is when nothing changes: strings.ToUpper maps every
// rune of a non-ASCII string through unicode.ToUpper, and FoldKey runs for
// every path of every run (20 % of an unchanged rerun's samples at 1 GB).
func FoldKey(s string) string {
	lower := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			lower = lower || 'a' <= c && c <= 'z'
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		// Invalid UTF-8 becomes U+FFFD in strings.ToUpper.
		if r == utf8.RuneError && n == 1 || !caseless(r) && unicode.ToUpper(r) != r {
			return strings.ToUpper(s)
		}
		i += n
	}
	if !lower {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// caseless reports runes of the blocks Japanese names are mostly made of
// that have no upper-case form: CJK symbols, kana and ideographs
// (TestFoldKey checks every rune against unicode.ToUpper).
func caseless(r rune) bool { return r >= 0x3000 && r <= 0x9FFF }

// NameIn reports whether names holds name, compared as FoldKey does.
func NameIn(names []string, name string) bool {
	for _, n := range names {
		if FoldKey(n) == FoldKey(name) {
			return true
		}
	}
	return false
}
