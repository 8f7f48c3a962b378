package xls

import (
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
)

// biff5String decodes a BIFF5 string at off of a record: a count of
// countBytes bytes (1 or 2), then that many code-page bytes, cut at the
// record's end. The caller has checked that the count is there.
func (b *book) biff5String(data []byte, off, countBytes int) string {
	n := int(data[off])
	if countBytes == 2 {
		n = biff.Le16(data, off)
	}
	start := off + countBytes
	n = min(n, len(data)-start)
	return b.cp.Decode(data[start : start+n])
}
