package ingestlist

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// lineReader yields LF-terminated lines, without the LF and one CR before
// it.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
}

// next returns the next terminated line. ok is false at the end of the
// input, including when the input ends in a line without its LF: that line
// was cut by a crash while being written and is dropped, except that cut
// reports it and line holds it (without a CR at its end), for a list that
// a person's tool saved without a last line break. tooLong reports a line
// over maxLineBytes, which is consumed but not returned (nor held: at most
// maxLineBytes of it are ever in memory).
func (lr *lineReader) next() (line string, ok, tooLong, cut bool, err error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.br.ReadSlice('\n')
		switch {
		case err == nil:
			if tooLong {
				return "", true, true, false, nil
			}
			if len(lr.buf) == 0 {
				return trimLine(chunk), true, false, false, nil
			}
			lr.buf = append(lr.buf, chunk...)
			return trimLine(lr.buf), true, false, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if !tooLong && len(lr.buf)+len(chunk) > maxLineBytes {
				tooLong, lr.buf = true, lr.buf[:0]
			}
			if !tooLong {
				lr.buf = append(lr.buf, chunk...)
			}
		case errors.Is(err, io.EOF):
			if tooLong {
				return "", false, true, true, nil
			}
			if len(lr.buf)+len(chunk) == 0 {
				return "", false, false, false, nil
			}
			rest := strings.TrimSuffix(string(append(lr.buf, chunk...)), "\r")
			return rest, false, false, true, nil
		default:
			return "", false, false, false, err
		}
	}
}

func trimLine(b []byte) string {
	b = b[:len(b)-1] // the LF
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return string(b)
}
