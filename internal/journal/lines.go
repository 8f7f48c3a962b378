package journal

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"
)

// maxLineBytes bounds one line of the journal or pending_remove.tsv. Paths
// are at most a few thousand characters; a longer line is malformed and
// skipped without being held in memory.
const maxLineBytes = 1 << 20

// lineFunc receives one complete line without its BOM, CR and LF. ok is false
// for a line that is too long or not valid UTF-8.
type lineFunc func(line string, ok bool) (stop bool)

// scanLines calls fn for every line of r that ends with LF (CRLF or LF), in
// order, skipping empty lines. A UTF-8 BOM at the very start is dropped. A
// last line without LF is a torn write (the writer was killed in the middle
// of it) and is not passed on; torn reports it. err is only a read error.
func scanLines(r io.Reader, fn lineFunc) (torn bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	first, tooLong := true, false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 && !tooLong {
			if len(buf)+len(chunk) > maxLineBytes {
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == nil: // a full line
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return len(buf) > 0 || tooLong, nil
		default:
			return false, err
		}
		var line []byte
		if !tooLong {
			line = buf[:len(buf)-1]
		}
		if first {
			line = bytes.TrimPrefix(line, []byte(bom))
			first = false
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		ok := !tooLong && utf8.Valid(line)
		if tooLong || len(line) > 0 {
			if fn(string(line), ok) {
				return false, nil
			}
		}
		buf, tooLong = buf[:0], false
	}
}
