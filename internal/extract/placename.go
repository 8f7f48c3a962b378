package extract

import (
	"fmt"
	"strconv"
	"strings"
)

// Place name parts (reference/extraction.md §2.1).
const (
	PlaceHeaderFooter = "ヘッダー・フッター"
	PlaceShape        = "[図形]"
	PlaceComment      = "[コメント]"
)

// PlaceEmbed is "[埋め込みN]".
func PlaceEmbed(n int) string { return "[埋め込み" + strconv.Itoa(n) + "]" }

// addPlace appends a place when it has a line left after right-trimming and
// dropping empty lines (writeUnits).
func AddPlace(r *Result, name string, lines []string) {
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r\n\u3000")
		if l != "" {
			out = append(out, l)
		}
	}
	if len(out) > 0 {
		r.Places = append(r.Places, Place{Name: name, Lines: out})
	}
}

func SlideName(n int, hidden bool) string {
	name := fmt.Sprintf("スライド%03d", n)
	if hidden {
		name += "（非表示）"
	}
	return name
}

// Text files (reference/extraction.md §12).
//
// A text file gives one place, 本文, whose line N is source line N:
//   - size over Limits.TextBytes (10 MB) fails with MsgTooLarge, checked on
//     the source before reading and again while reading (a file that grew);
//   - the encoding is detected from the bytes (text.detectTextEncoding); a
//     rejected file, or one whose decoded text holds a NUL, fails with
//     MsgNotText;
//   - lines are split like .NET ReadLine at CRLF, LF or CR; each line is
//     right-trimmed of white space (U+3000 and U+2028 included); empty lines
//     in the middle stay so numbers match the file, trailing empty lines go;
//   - a file with no text (empty, or only blank lines) gives no place.
//
// The source is read in place, read-only: unlike tebunko, no scratch copy is
// needed to let users keep editing on Linux or Windows.

// PlaceText is the single place of a text file.
const PlaceText = "本文"
