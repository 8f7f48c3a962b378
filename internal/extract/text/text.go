package text

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/osfile"
)

func init() {
	extract.RegisterFormat(extract.Format{Name: "text", Extensions: extract.TextExtensions, Read: readText, Whole: true})
}

func readText(ctx context.Context, path string, opt extract.Options) (*extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := opt.ResolvedLimits().TextBytes
	if opt.Data != nil {
		if int64(len(opt.Data)) > limit {
			return nil, extract.Fail(extract.MsgTooLarge, fmt.Errorf("extract: text file %s is %d bytes, over the %d-byte limit", path, len(opt.Data), limit))
		}
		return result(opt.Data, path)
	}
	f, err := osfile.OpenRead(path)
	if err != nil {
		return nil, fmt.Errorf("extract: open text file %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("extract: stat text file %s: %w", path, err)
	}
	if st.Size() > limit {
		return nil, extract.Fail(extract.MsgTooLarge, fmt.Errorf("extract: text file %s is %d bytes, over the %d-byte limit", path, st.Size(), limit))
	}
	b, err := osfile.ReadAll(f, st.Size(), limit)
	if err != nil {
		return nil, fmt.Errorf("extract: read text file %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, extract.Fail(extract.MsgTooLarge, fmt.Errorf("extract: text file %s grew past the %d-byte limit while read", path, limit))
	}
	return result(b, path)
}

// result decodes a whole text file and splits it into the 本文 place.
func result(b []byte, path string) (*extract.Result, error) {
	if len(b) == 0 {
		return &extract.Result{}, nil
	}
	s, enc, ok := decodeText(b)
	if !ok {
		return nil, extract.Fail(extract.MsgNotText, fmt.Errorf("extract: %s: text encoding not determinable (%v)", path, enc))
	}
	if strings.ContainsRune(s, 0) {
		return nil, extract.Fail(extract.MsgNotText, fmt.Errorf("extract: %s: NUL character in %v text", path, enc))
	}
	lines := splitLines(s)
	if len(lines) == 0 {
		return &extract.Result{}, nil
	}
	return &extract.Result{Places: []extract.Place{{Name: extract.PlaceText, Lines: lines}}}, nil
}

// splitLines splits like .NET TextReader.ReadLine (CRLF, LF, CR), trims each
// line's trailing white space and drops trailing empty lines.
func splitLines(s string) []string {
	var lines []string
	// The next CR and LF at or after pos (len(s): none), each found by one
	// IndexByte scan that is kept until pos passes it: every byte is read
	// at most once per kind, where IndexAny read them one at a time (1 %
	// of a build of text files).
	cr, lf := -1, -1
	for pos := 0; pos < len(s); {
		if cr < pos {
			cr = nextByte(s, pos, '\r')
		}
		if lf < pos {
			lf = nextByte(s, pos, '\n')
		}
		i := min(cr, lf)
		if i == len(s) {
			lines = append(lines, s[pos:])
			break
		}
		lines = append(lines, s[pos:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		pos = i + 1
	}
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// nextByte is the index of the first c in s at or after pos, or len(s).
func nextByte(s string, pos int, c byte) int {
	if i := strings.IndexByte(s[pos:], c); i >= 0 {
		return pos + i
	}
	return len(s)
}
