package worker

import (
	"os"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// The OCR page cache (issue 29) holds one file per page image recognized,
// content-addressed by the page's key (a hash of the image, ocr.Key):
//
//	work/ocr/pages/<first two characters of the key>/<key>.txt
//
// Format: UTF-8 without BOM, one recognized line per line, each ended by
// LF; a CR or LF inside a line is written as U+2028 (as in place TSVs). An
// empty file is a page with no text. The coordinator writes an entry
// (workspace.WriteFileAtomic) when a worker hands the page over (Interim
// ocrPage), before it reads that file's result; workers only read entries,
// through Cached. Which files use which keys, the size cap and the
// clean-up: indexer/ocrcache.go.

// EncodeOCRLines is the bytes of a cache entry holding lines.
func EncodeOCRLines(lines []string) []byte {
	var b strings.Builder
	nl := strings.NewReplacer("\r\n", "\u2028", "\r", "\u2028", "\n", "\u2028")
	for _, l := range lines {
		b.WriteString(nl.Replace(l))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// DecodeOCRLines reads the lines of a cache entry.
func DecodeOCRLines(data []byte) []string {
	s := strings.TrimSuffix(string(data), "\n")
	if len(data) == 0 {
		return []string{}
	}
	return strings.Split(s, "\n")
}

// ReadOCRCache returns the lines cached for key in the cache folder dir;
// false when there is none or it cannot be read (the page is recognized
// again, which costs time, never text).
func ReadOCRCache(dir, key string) ([]string, bool) {
	if dir == "" || !workspace.ValidOCRKey(key) {
		return nil, false
	}
	data, err := os.ReadFile(workspace.OCRCacheEntry(dir, key))
	if err != nil {
		return nil, false
	}
	return DecodeOCRLines(data), true
}
