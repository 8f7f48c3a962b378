// Package codepage holds the one table of the Windows code pages that
// legacy Office files keep 8-bit text in, and the decoder of each: Word
// 6/95 documents (extract/doc, which chooses the page from the FIB's lid
// and chse) and BIFF5 workbooks (extract/internal/biff, from the CODEPAGE
// record, [MS-XLS] 2.4.52; RTF's \ansicpg and \fcharset go through it
// too). It knows code page numbers only: how a format names its page, and
// what a reader does with a page missing here (both read such text as
// Windows-1252), stay with the reader. It reads no file.
package codepage

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// page is one code page: its decoder and, for a double-byte page, which
// bytes lead a two-byte character.
type page struct {
	enc  encoding.Encoding
	lead func(b byte) bool // nil for a single-byte page
}

// sjisLead tells the lead bytes of Shift_JIS: 0x81–0x9F and 0xE0–0xFC
// (0xA1–0xDF are one-byte halfwidth katakana).
func sjisLead(b byte) bool { return b >= 0x81 && b <= 0x9F || b >= 0xE0 && b <= 0xFC }

// leadRange is the lead-byte test of a double-byte page whose lead
// bytes are lo to hi.
func leadRange(lo, hi byte) func(b byte) bool {
	return func(b byte) bool { return b >= lo && b <= hi }
}

// pages are the code pages by number, with the names Windows gives them.
var pages = map[int]page{
	437:   {enc: charmap.CodePage437},                                  // OEM United States
	850:   {enc: charmap.CodePage850},                                  // OEM Multilingual Latin 1
	852:   {enc: charmap.CodePage852},                                  // OEM Latin 2
	855:   {enc: charmap.CodePage855},                                  // OEM Cyrillic
	860:   {enc: charmap.CodePage860},                                  // OEM Portuguese
	862:   {enc: charmap.CodePage862},                                  // OEM Hebrew
	863:   {enc: charmap.CodePage863},                                  // OEM French Canadian
	865:   {enc: charmap.CodePage865},                                  // OEM Nordic
	866:   {enc: charmap.CodePage866},                                  // OEM Russian
	874:   {enc: charmap.Windows874},                                   // Thai
	932:   {enc: japanese.ShiftJIS, lead: sjisLead},                    // Japanese Shift_JIS
	936:   {enc: simplifiedchinese.GBK, lead: leadRange(0x81, 0xFE)},   // Simplified Chinese GBK
	949:   {enc: korean.EUCKR, lead: leadRange(0x81, 0xFE)},            // Korean (Unified Hangul Code)
	950:   {enc: traditionalchinese.Big5, lead: leadRange(0x81, 0xFE)}, // Traditional Chinese Big5
	1250:  {enc: charmap.Windows1250},                                  // Central European
	1251:  {enc: charmap.Windows1251},                                  // Cyrillic
	1252:  {enc: charmap.Windows1252},                                  // Western European
	1253:  {enc: charmap.Windows1253},                                  // Greek
	1254:  {enc: charmap.Windows1254},                                  // Turkish
	1255:  {enc: charmap.Windows1255},                                  // Hebrew
	1256:  {enc: charmap.Windows1256},                                  // Arabic
	1257:  {enc: charmap.Windows1257},                                  // Baltic
	1258:  {enc: charmap.Windows1258},                                  // Vietnamese
	10000: {enc: charmap.Macintosh},                                    // Mac Roman
}

// Encoding returns the decoder of code page cp, and false when there is
// none here: UTF-16 (1200), UTF-8 (65001) and pages no reader has met.
func Encoding(cp int) (encoding.Encoding, bool) {
	p, ok := pages[cp]
	return p.enc, ok
}

// Lead returns the test for the bytes that lead a two-byte character of
// code page cp (Shift_JIS 0x81–0x9F and 0xE0–0xFC; GBK, UHC and Big5
// 0x81–0xFE), or nil when cp is a single-byte page or not here.
func Lead(cp int) func(b byte) bool {
	return pages[cp].lead
}

// charsets are the Windows character sets (LOGFONT lfCharSet, which Word
// keeps as the FIB's chse and RTF as \fcharset) by the code page of each;
// the one map of them, so the readers agree (VIETNAMESE_CHARSET 163 is
// Windows-1258 in both).
var charsets = map[int]int{
	0:   1252,  // ANSI_CHARSET
	77:  10000, // MAC_CHARSET
	128: 932,   // SHIFTJIS_CHARSET
	129: 949,   // HANGUL_CHARSET
	134: 936,   // GB2312_CHARSET
	136: 950,   // CHINESEBIG5_CHARSET
	161: 1253,  // GREEK_CHARSET
	162: 1254,  // TURKISH_CHARSET
	163: 1258,  // VIETNAMESE_CHARSET
	177: 1255,  // HEBREW_CHARSET
	178: 1256,  // ARABIC_CHARSET
	186: 1257,  // BALTIC_CHARSET
	204: 1251,  // RUSSIAN_CHARSET
	222: 874,   // THAI_CHARSET
	238: 1250,  // EASTEUROPE_CHARSET
}

// ForCharset returns the code page of a Windows character set, and false
// for one not listed (DEFAULT_CHARSET 1, SYMBOL_CHARSET 2, OEM 255 …),
// which each reader resolves its own way.
func ForCharset(cs int) (int, bool) {
	cp, ok := charsets[cs]
	return cp, ok
}

// Decode converts 8-bit text to a string with enc (nil: Windows-1252, the
// page every reader assumes when a file names none or one missing here).
// ASCII passes through; bytes enc cannot decode into valid UTF-8 are read
// as Latin-1, so no text is lost to a wrong code page.
func Decode(enc encoding.Encoding, b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	if enc == nil {
		enc = charmap.Windows1252
	}
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil || !utf8.Valid(out) {
		return Latin1(b)
	}
	return string(out)
}

// Latin1 reads each byte as the code point of its value (ISO 8859-1).
func Latin1(b []byte) string {
	for _, c := range b {
		if c >= 0x80 {
			var s strings.Builder
			s.Grow(len(b) + 8)
			for _, c := range b {
				s.WriteRune(rune(c))
			}
			return s.String()
		}
	}
	return string(b)
}
