// Package ocr reads the text of page images with Tesseract (issue 29):
// image-only pages of PDFs and scanned or faxed image files, Japanese
// (horizontal and vertical writing) and English. It owns no workspace
// file; it writes only page images into the scratch folder it is given,
// and removes each after use. It imports nothing of ours but proctree:
// the worker builds extract.OCR around a *Tesseract (whose Recognize is
// an extract.Recognizer) and the readers call it through that seam.
//
// # Finding Tesseract
//
// Find takes the settings path (settings.json "tesseractPath") first, then
// tesseract on PATH, then the places installers use: on Windows the UB
// Mannheim installer's %ProgramFiles%\Tesseract-OCR\tesseract.exe and the
// per-user %LOCALAPPDATA%\Programs\Tesseract-OCR\tesseract.exe; on macOS
// Homebrew's /opt/homebrew/bin and /usr/local/bin. None: ErrNotFound.
//
// # Invocations
//
// Tesseract runs once per call as a child of the worker (proctree.Command:
// cancelling ctx, the worker's deadline, kills its tree; the worker's
// process-tree kill and memory cap cover it), with OMP_THREAD_LIMIT=1 so
// that parallel workers do not oversubscribe the CPUs. The calls, exactly
// (tests fake the program with a script that answers these):
//
//	tesseract --version                                  (New, Version)
//	tesseract --list-langs                               (New: jpn, jpn_vert, eng needed)
//	tesseract <png> stdout --psm 0                       (orientation, only when osd is listed)
//	tesseract <png> stdout -l jpn+eng --psm <n> tsv      (recognition, horizontal; n = 3)
//	tesseract <png> stdout -l jpn_vert --psm <n> tsv     (recognition, vertical; n = 5)
//
// <png> is an 8-bit grayscale PNG in the scratch folder. --list-langs
// prints "List of available languages in ...:" and one name a line (on
// stdout since Tesseract 4.1, stderr before: both are read). The OSD call
// prints "Rotate: <0|90|180|270>" and "Orientation confidence: <f>"; any
// failure of it (too few characters, a fake program) means "upright".
//
// # TSV
//
// The tsv output is a header line and one line per element, TAB separated:
//
//	level page_num block_num par_num line_num word_num left top width height conf text
//
// Only level 5 (words) carry text. Words with conf below MinConfidence are
// dropped rather than indexed as garbage, except one or two kanji or kana
// between two words of their line at or above it (Tesseract gives some
// plainly printed characters a confidence of 0; noise reads as symbols
// and Latin letters). The words kept are grouped by
// (page, block, par, line) in the order Tesseract writes them, which is
// its reading order (right to left for vertical columns), and each group
// is one output line. Tesseract separates every word by a space, and in
// Japanese every character or two is a "word": a space is kept only
// between two words that both end and begin with a non-CJK character
// (Latin words, numbers), so 見積 書 becomes 見積書 and "ISO 9001" stays.
// Lines with no word left are dropped. A malformed line is skipped.
//
// # Orientation and vertical writing
//
// Recognize reads the page horizontally (jpn+eng, psm 3) first: a good
// reading (mean word confidence at least PoorConfidence), the common case,
// is the answer, one call. Otherwise OSD is asked for the page's rotation;
// when it is confident (MinOSDConfidence) the page is turned upright and
// read horizontally again. A reading still poor is tried as vertical
// writing (jpn_vert, psm 5). Of the readings made, the one with the higher
// score (sum of confidence × characters of the kept words) is kept.
//
// # Keys
//
// Key names a page image by content: SHA-256 over SettingsVersion, the
// size and the 8-bit gray levels of the image it is given (the same page
// held as RGB or gray hashes the same). Readers give it the page as
// Tesseract will see it (Prepare: gray, about 300 dpi, capped), so a
// change of the recognizer's settings, SettingsVersion among them,
// re-OCRs every page.
//
// # Preparation
//
// Prepare turns a decoded page into what Tesseract reads: gray levels
// (transparent pixels over white), square pixels (a fax in standard mode,
// 204 × 98 dpi, is scaled up along its coarse axis), scaled to about DPI
// when the file states a resolution outside MinDPI–MaxDPI (a 600 dpi scan
// is halved, a 150 dpi one doubled; 200–400 dpi is left as scanned), and
// at most MaxPixels. Readers refuse a page over MaxDecodePixels from
// its header, before decoding it (MsgTooLarge).
package ocr
