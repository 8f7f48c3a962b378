package extract

import (
	"fmt"
	"strconv"
	"strings"
)

// Place names (reference/extraction.md §2.1). A place is a base name — a
// sheet, ページNNN (with （目安） when estimated), スライドNNN with （非表示） or _ノート, 脚注, 文書, 本文,
// ヘッダー・フッター — optionally followed by an object kind in brackets
// (売上[図形], 売上[埋め込み2], 文書[コメント]). The readers write them with
// these names; content and search read them back with the same ones.
const (
	ObjectShape        = "図形"
	ObjectComment      = "コメント"
	ObjectHeaderFooter = "ヘッダー・フッター"
	ObjectEmbed        = "埋め込み" // followed by its number from 1
	// ObjectForm is a PDF page's form fields (issue 33): the values of
	// its AcroForm widgets, ページ003[フォーム].
	ObjectForm = "フォーム"

	PlaceShape   = "[" + ObjectShape + "]"
	PlaceComment = "[" + ObjectComment + "]"
	PlaceForm    = "[" + ObjectForm + "]"
	// PlaceHeaderFooter is the header/footer place of a document or
	// presentation; a sheet's is <sheet>[ヘッダー・フッター].
	PlaceHeaderFooter = ObjectHeaderFooter

	// HiddenSheetSuffix ends the place of a hidden sheet read because
	// the root asks for hidden sheets (Options.HiddenSheets, issue 31):
	// `原価[非表示]`, its objects `原価[非表示][図形]`. Brackets cannot
	// occur in an Excel sheet name, so the place can never be a visible
	// sheet's (a sheet may well be named `原価（非表示）`), nor can its
	// file (`原価[非表示].tsv`). Labels show it as HiddenSuffix:
	// `[シート]原価（非表示）!B3`.
	HiddenSheetSuffix = "[非表示]"

	PagePrefix   = "ページ"
	SlidePrefix  = "スライド"
	HiddenSuffix = "（非表示）"
	// EstimateSuffix ends the name of a Word page whose number is an
	// estimate (ページ003（目安）): the document recorded no page breaks
	// (wordpage.Layout.Estimate).
	EstimateSuffix = "（目安）"
	NotesSuffix    = "_ノート"
	PlaceFootnotes = "脚注"
	PlaceDocument  = "文書" // the whole document: 文書[コメント]
)

// PlaceEmbed is "[埋め込みN]".
func PlaceEmbed(n int) string { return "[" + ObjectEmbed + strconv.Itoa(n) + "]" }

// PageName is "ページNNN".
func PageName(n int) string { return fmt.Sprintf(PagePrefix+"%03d", n) }

// NotesName is "スライドNNN_ノート".
func NotesName(n int) string { return fmt.Sprintf(SlidePrefix+"%03d"+NotesSuffix, n) }

// AddPlace appends a place when it has a line left after right-trimming and
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

// HiddenSheetName is the place of hidden sheet name: name[非表示].
func HiddenSheetName(name string) string { return name + HiddenSheetSuffix }

// SlideName is "スライドNNN", with "（非表示）" for a hidden slide.
func SlideName(n int, hidden bool) string {
	name := fmt.Sprintf(SlidePrefix+"%03d", n)
	if hidden {
		name += HiddenSuffix
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

// Places read by OCR (issue 29). Their names end in OCRSuffix, so search
// labels them as OCR text (`3 ページ（OCR）`, `画像（OCR）`,
// `2 ページ目の画像（OCR）`) and its JSON marks them "ocr": true:
//   - ページNNN（OCR）: an image-only page NNN of a PDF (OCRPageName);
//   - 画像（OCR）: an image file of one page (PlaceImageOCR);
//   - 画像NNN（OCR）: page NNN of a multi-page TIFF (OCRImageName).
const (
	OCRSuffix     = "（OCR）"
	ImagePrefix   = "画像"
	PlaceImageOCR = ImagePrefix + OCRSuffix
)

// OCRPageName is "ページNNN（OCR）".
func OCRPageName(n int) string { return PageName(n) + OCRSuffix }

// OCRImageName is "画像NNN（OCR）", page n of a multi-page image file.
func OCRImageName(n int) string { return fmt.Sprintf(ImagePrefix+"%03d"+OCRSuffix, n) }
