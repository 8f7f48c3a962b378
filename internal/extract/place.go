package extract

import (
	"path/filepath"
	"strings"
)

// Place is one place of a source file: a display name as the reference
// writes it (`売上`, `売上[図形]`, `ページ003`, `スライド002（非表示）`,
// `スライド002_ノート`, `ヘッダー・フッター`, `本文`) and its lines.
//
// Excel sheets: Lines[N-1] is sheet row N (empty strings for empty rows,
// trailing empty rows removed), cells separated by TAB, in-cell newlines as
// U+2028, quoted in Excel's text-export style. Shapes and comments:
// "<cell><TAB><text>". Word / PowerPoint: one paragraph or table row per
// line, empty lines dropped. Text files: line N = source line N.
type Place struct {
	Name  string
	Lines []string
}

// Result is what one extraction produced.
type Result struct {
	Places []Place
	// Log holds indented lines for indexing_log.txt (warnings such as
	// "    一部を読み取れませんでした: <部品名>"), without the leading "[i/N]".
	Log []string
	// NoText marks a PDF without a text layer (a scan): it succeeds with
	// no page places, and the run's summary counts it (issue 20).
	NoText bool
	// OCRWaiting counts the pages that need OCR and were not read
	// because no OCR engine is installed (Options.OCR.Engine nil): the
	// file succeeds with its text layer and is read again, those pages
	// only, once an engine is there (issue 29).
	OCRWaiting int
	// OCRPages counts the pages read by OCR (cached or recognized).
	OCRPages int
}

// Kind is the family a file belongs to, used by search filters.
type Kind string

// Kinds of files (the search --kind values).
const (
	KindExcel      Kind = "excel"
	KindWord       Kind = "word"
	KindPowerPoint Kind = "powerpoint"
	KindText       Kind = "text"
	KindPDF        Kind = "pdf"
	// KindImage is an image file read by OCR (issue 29): a target only
	// under a root with ocrImages, which the crawl decides.
	KindImage Kind = "image"
)

// OfficeExtensions are the 10 Office extensions (reference/indexing.md §3.3).
var OfficeExtensions = []string{".xlsx", ".xlsm", ".xls", ".xlsb", ".docx", ".docm", ".doc", ".pptx", ".pptm", ".ppt"}

// OpenDocumentKinds are the OpenDocument and RTF extensions (issue 20)
// with the kind of the Office format whose places they have.
var OpenDocumentKinds = map[string]Kind{
	".odt": KindWord, ".fodt": KindWord, ".rtf": KindWord,
	".ods": KindExcel, ".fods": KindExcel,
	".odp": KindPowerPoint, ".fodp": KindPowerPoint,
}

// TextExtensions are the 75 text extensions, pinned by a test
// (reference/extraction.md §12).
var TextExtensions = strings.Fields(`.txt .csv .tsv .md .log .json .xml .c .h .cpp .cc .cxx .hpp .cs .java .kt .kts .go .rs .swift .scala .dart .vb .bas .pas .asm .m .r .jl .hs .ex .exs .erl .clj .groovy .lua .py .rb .pl .php .psm1 .psd1 .jsx .tsx .mjs .vue .sql .yaml .yml .toml .ini .cfg .conf .properties .gradle .cmake .proto .graphql .tf .html .htm .css .scss .less .rst .tex .diff .patch .bat .cmd .ps1 .vbs .js .reg .sh`)

// ImageExtensions are the image files read by OCR (issue 29; reader
// extract/image). They are no target of the crawl by themselves: only
// roots that read images (settings ocrImages) take them.
var ImageExtensions = []string{".tif", ".tiff", ".png", ".jpg", ".jpeg", ".bmp"}

var targetKind = func() map[string]Kind {
	m := map[string]Kind{}
	for _, e := range TextExtensions {
		m[e] = KindText
	}
	for _, e := range []string{".xlsx", ".xlsm", ".xls", ".xlsb"} {
		m[e] = KindExcel
	}
	for _, e := range []string{".docx", ".docm", ".doc"} {
		m[e] = KindWord
	}
	for _, e := range []string{".pptx", ".pptm", ".ppt"} {
		m[e] = KindPowerPoint
	}
	// OpenDocument and RTF have the places of their Office counterparts,
	// so they take the counterpart's kind (labels, --kind, badges).
	for e, k := range OpenDocumentKinds {
		m[e] = k
	}
	m[".pdf"] = KindPDF
	for _, e := range ImageExtensions {
		m[e] = KindImage
	}
	return m
}()

// KindOf returns the kind of a file name by its extension (ignoring case),
// and false when the file is not a target.
func KindOf(name string) (Kind, bool) {
	k, ok := targetKind[strings.ToLower(filepath.Ext(name))]
	return k, ok
}

// IsTarget reports whether a file name is indexed: a target extension and
// not an Office owner file (~$…). An image (KindImage) is indexed only
// under a root that reads images (settings ocrImages), which the crawl
// and the watcher check first.
func IsTarget(name string) bool {
	if strings.HasPrefix(name, "~$") {
		return false
	}
	_, ok := KindOf(name)
	return ok
}

// extractVersions is the content version per extension (reference
// extraction.md §11, seed 抽出版). Raising one re-ingests every file of that
// extension once (the plan counts such a 済 row as 更新あり). History:
//
//	.xlsx .xlsm 4, .docx .docm 4, .pptx .pptm 4, text 1: the reference's
//	    versions (cells, shapes, comments, charts, SmartArt, header/footer;
//	    embedded Office files), kept so that an ingest list of tebunko's
//	    era is not re-ingested for nothing
//	.xls .xlsb 2 (reference 1, cells only): native readers with shapes,
//	    comments, charts and header/footer
//	.doc 5 (reference 4): native reader (pieces, stories, pages)
//	.ppt 3 (reference 2): native reader (slides, notes, embeds)
//	.odt .ods .odp .fodt .fods .fodp .rtf 1: new readers (issue 20)
//	.xlsb 3: short cell records (BrtShort*, as SheetJS writes them)
//	.doc 6: Word 6.0/95 documents read natively (code page 932 among them)
//	.xls 3: Excel 3.0/4.0 worksheets (BIFF3/BIFF4) read natively
//	.ppt 4 (.doc 6 too, landed the same day): embedded Excel 5.0/95
//	    workbooks read (the .xls reader's workbook reader)
//	.docx .docm 5, .doc 7: pages without recorded breaks are estimated
//	    from the page setup and marked ページNNN（目安） (issue 16)
//	.pdf 2: image-only pages read by OCR (issue 29), so scans indexed
//	    before are read again once (or wait for an OCR engine)
//	.pdf 3: form fields as ページNNN[フォーム], characters outside the BMP
//	    whole, unmapped glyphs dropped, a bad page skipped, cropped pages'
//	    own text (issue 33)
//	.pdf 4: glyphs of fonts without a ToUnicode map read from the font's
//	    program (glyph names, cmap, Type 1 built-in encoding; issue 33)
//	.pdf 5: font dictionaries read (Type 3 and /Differences glyph names,
//	    TrueType codes that look like letters, CID TrueType fonts with a
//	    broken or missing ToUnicode map; issue 33)
//	.pdf 6: unmapped glyphs on cropped pages, broken ToUnicode maps of
//	    simple fonts, numeric glyph names (issue 33)
var extractVersions = map[string]int{
	".pdf": 6,
	".odt": 1, ".ods": 1, ".odp": 1, ".fodt": 1, ".fods": 1, ".fodp": 1, ".rtf": 1,
	".xlsx": 4, ".xlsm": 4,
	".docx": 5, ".docm": 5, ".doc": 7,
	".pptx": 4, ".pptm": 4,
	".ppt": 4,
	".xls": 3, ".xlsb": 3,
}

// Version returns the current extract version of a file name's extension
// (1 for text files).
func Version(name string) int {
	if v, ok := extractVersions[strings.ToLower(filepath.Ext(name))]; ok {
		return v
	}
	return 1
}
