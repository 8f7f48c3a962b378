package content

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// MsgNameTooLong is the per-file failure for a place file name over 255
// characters (reference/indexing.md §17.2).
const MsgNameTooLong = "インデックスのファイル名が長すぎるため保存できません（%d 文字。上限 255 文字）: %s"

// Object kinds in place display names and their English file-name forms.
var kindNames = []struct{ ja, en string }{
	{extract.ObjectShape, "shape"},
	{extract.ObjectComment, "comment"},
	{extract.ObjectHeaderFooter, "header_footer"},
	{extract.ObjectForm, "form"}, // a PDF page's form fields (issue 33)
}

var (
	reKindJa   = lazyRegexp(`^(.*)\[(` + extract.ObjectShape + `|` + extract.ObjectComment + `|` + extract.ObjectHeaderFooter + `|` + extract.ObjectForm + `|` + extract.ObjectEmbed + `[1-9][0-9]*)\]$`)
	reKindEn   = lazyRegexp(`^(.*)\[(shape|comment|header_footer|form|embed[1-9][0-9]*)\]$`)
	rePage     = lazyRegexp(`^` + extract.PagePrefix + `([0-9]{3,})$`)
	reEstimate = lazyRegexp(`^` + extract.PagePrefix + `([0-9]{3,})` + extract.EstimateSuffix + `$`)
	reSlide    = lazyRegexp(`^` + extract.SlidePrefix + `([0-9]{3,})$`)
	reHidden   = lazyRegexp(`^` + extract.SlidePrefix + `([0-9]{3,})` + extract.HiddenSuffix + `$`)
	reNotes    = lazyRegexp(`^` + extract.SlidePrefix + `([0-9]{3,})` + extract.NotesSuffix + `$`)
	rePageEn   = lazyRegexp(`^page_([0-9]{3,})$`)
	reEstEn    = lazyRegexp(`^page_([0-9]{3,})_estimate$`)
	reSlideEn  = lazyRegexp(`^slide_([0-9]{3,})$`)
	reHiddenEn = lazyRegexp(`^slide_([0-9]{3,})_hidden$`)
	reNotesEn  = lazyRegexp(`^slide_([0-9]{3,})_notes$`)
	reDecode   = lazyRegexp(`%(?:[01][0-9A-F]|2[25AF]|3[ACEF]|4[13CE]|5[0CF]|6[13CE]|70|7C)`)
)

// lazyRegexp compiles expr on first use: every fumibako command links
// this package, and compiling at start-up slowed each search's start.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

var fixedBases = map[string]string{
	extract.PlaceHeaderFooter: "header_footer",
	extract.PlaceFootnotes:    "doc_footnotes",
	extract.PlaceDocument:     "doc_whole",
	extract.PlaceText:         "doc_body",
}

// SplitKind splits a place display name into its base and object kind
// (`売上[図形]` → `売上`, `図形`); kind is empty for a plain place.
func SplitKind(place string) (base, kind string) {
	if m := reKindJa().FindStringSubmatch(place); m != nil {
		return m[1], m[2]
	}
	return place, ""
}

// FileName returns the TSV file name of a place (toIndexFileName), with one
// addition: a name that Windows reads as a device (workspace.IsReservedName,
// `CON.tsv`) gets its first letter encoded (`%43ON.tsv`). A result
// longer than 255 characters is an error carrying MsgNameTooLong.
func FileName(place string) (string, error) {
	base, kind := SplitKind(place)
	var b strings.Builder
	switch {
	case rePage().MatchString(base):
		b.WriteString("page_" + rePage().FindStringSubmatch(base)[1])
	case reEstimate().MatchString(base):
		b.WriteString("page_" + reEstimate().FindStringSubmatch(base)[1] + "_estimate")
	case reSlide().MatchString(base):
		b.WriteString("slide_" + reSlide().FindStringSubmatch(base)[1])
	case reHidden().MatchString(base):
		b.WriteString("slide_" + reHidden().FindStringSubmatch(base)[1] + "_hidden")
	case reNotes().MatchString(base):
		b.WriteString("slide_" + reNotes().FindStringSubmatch(base)[1] + "_notes")
	default:
		if f, ok := fixedBases[base]; ok {
			b.WriteString(f)
		} else {
			encodeBase(&b, base)
		}
	}
	if kind != "" {
		b.WriteString("[" + kindEnglish(kind) + "]")
	}
	b.WriteString(".tsv")
	name := b.String()
	if workspace.IsReservedName(name) {
		// A sheet named CON, aux, … : its first letter (always ASCII) is
		// percent-encoded, as the characters Windows forbids are, so the
		// name means the same file on every OS and decodes back.
		name = fmt.Sprintf("%%%02X", name[0]) + name[1:]
	}
	if n := utf8.RuneCountInString(name); n > 255 {
		return "", &NameError{Msg: fmt.Sprintf(MsgNameTooLong, n, name)}
	}
	return name, nil
}

// NameError is a place whose file name cannot be stored.
type NameError struct{ Msg string }

func (e *NameError) Error() string { return e.Msg }

func kindEnglish(kind string) string {
	for _, k := range kindNames {
		if k.ja == kind {
			return k.en
		}
	}
	return "embed" + strings.TrimPrefix(kind, extract.ObjectEmbed)
}

func kindJapanese(kind string) string {
	for _, k := range kindNames {
		if k.en == kind {
			return k.ja
		}
	}
	return extract.ObjectEmbed + strings.TrimPrefix(kind, "embed")
}

func encodeBase(b *strings.Builder, base string) {
	for _, r := range base {
		switch {
		case r < 0x20:
			fmt.Fprintf(b, "%%%02X", r)
		case strings.ContainsRune("\"%*/:<>?\\_|", r):
			fmt.Fprintf(b, "%%%02X", r)
		default:
			b.WriteRune(r)
		}
	}
}

// PlaceName maps a TSV file name back to the place display name
// (convertIndexFileNameToPlace); ok is false for a name that is not a
// place file. `.tsv` is the empty place (a sheet without a name in a
// damaged workbook): FileName stores it so, and the folder must read back.
func PlaceName(file string) (place string, ok bool) {
	stem, found := strings.CutSuffix(file, ".tsv")
	if !found {
		return "", false
	}
	base, kind := stem, ""
	if m := reKindEn().FindStringSubmatch(stem); m != nil {
		base, kind = m[1], m[2]
	}
	switch {
	case rePageEn().MatchString(base):
		base = extract.PagePrefix + rePageEn().FindStringSubmatch(base)[1]
	case reEstEn().MatchString(base):
		base = extract.PagePrefix + reEstEn().FindStringSubmatch(base)[1] + extract.EstimateSuffix
	case reSlideEn().MatchString(base):
		base = extract.SlidePrefix + reSlideEn().FindStringSubmatch(base)[1]
	case reHiddenEn().MatchString(base):
		base = extract.SlidePrefix + reHiddenEn().FindStringSubmatch(base)[1] + extract.HiddenSuffix
	case reNotesEn().MatchString(base):
		base = extract.SlidePrefix + reNotesEn().FindStringSubmatch(base)[1] + extract.NotesSuffix
	default:
		fixed := false
		for ja, en := range fixedBases {
			if en == base {
				base, fixed = ja, true
				break
			}
		}
		if !fixed {
			if strings.Contains(base, "_") {
				return "", false
			}
			base = reDecode().ReplaceAllStringFunc(base, func(s string) string {
				var v int
				fmt.Sscanf(s[1:], "%02X", &v)
				return string(rune(v))
			})
		}
	}
	if kind != "" {
		base += "[" + kindJapanese(kind) + "]"
	}
	return base, true
}
