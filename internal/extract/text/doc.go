// Package text reads plain-text files (reference/extraction.md §12): the
// reference's extension list, a 10 MB limit, the encoding detected from the
// bytes (UTF-8, UTF-16 with or without BOM, Shift_JIS, EUC-JP, ISO-2022-JP;
// textenc.go), one place 本文 whose line N is source line N.
package text
