package extract

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
)

// Text files (reference/extraction.md §12).
//
// A text file gives one place, 本文, whose line N is source line N:
//   - size over Limits.TextBytes (10 MB) fails with MsgTooLarge, checked on
//     the source before reading and again while reading (a file that grew);
//   - the encoding is detected from the bytes (detectTextEncoding); a
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

func init() {
	register(readText, TextExtensions...)
}

func readText(ctx context.Context, path string, opt Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("extract: open text file %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("extract: stat text file %s: %w", path, err)
	}
	limit := opt.limits().TextBytes
	if st.Size() > limit {
		return nil, Fail(MsgTooLarge, fmt.Errorf("extract: text file %s is %d bytes, over the %d-byte limit", path, st.Size(), limit))
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("extract: read text file %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, Fail(MsgTooLarge, fmt.Errorf("extract: text file %s grew past the %d-byte limit while read", path, limit))
	}
	return textResult(b, path)
}

// textResult decodes a whole text file and splits it into the 本文 place.
func textResult(b []byte, path string) (*Result, error) {
	if len(b) == 0 {
		return &Result{}, nil
	}
	s, enc, ok := decodeText(b)
	if !ok {
		return nil, Fail(MsgNotText, fmt.Errorf("extract: %s: text encoding not determinable (%v)", path, enc))
	}
	if strings.ContainsRune(s, 0) {
		return nil, Fail(MsgNotText, fmt.Errorf("extract: %s: NUL character in %v text", path, enc))
	}
	lines := splitLines(s)
	if len(lines) == 0 {
		return &Result{}, nil
	}
	return &Result{Places: []Place{{Name: PlaceText, Lines: lines}}}, nil
}

// splitLines splits like .NET TextReader.ReadLine (CRLF, LF, CR), trims each
// line's trailing white space and drops trailing empty lines.
func splitLines(s string) []string {
	var lines []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
