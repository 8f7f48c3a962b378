package format

import (
	"errors"
	"fmt"
	"strings"
)

// PlaceLine is one line of a place as a preview shows it: its number and
// its text. A line split by the cap (extract.LineMaxRunes) is its first
// piece, with Continued set.
type PlaceLine struct {
	No        int
	Text      string
	Continued bool
}

// ErrNoPlace is the cause of ReadPlace's error for a file or place that
// dir's body index does not hold.
var ErrNoPlace = errors.New("bodyindex: no such file or place")

// ReadPlace returns the lines first to last (numbers, 1-based, clamped to
// the place) of one place of the file name (compared exactly) in dir's
// body index, and how many lines the place has. It decodes only the
// blocks that hold those lines, so what a preview costs is bounded by the
// window (at most last-first+1 lines of at most extract.LineMaxRunes
// runes), never by the file (issue 36: ten previews of a file with a
// 99 MB line took a server to 6 GiB).
func ReadPlace(dir, name, place string, first, last int) (lines []PlaceLine, total int, err error) {
	f, err := OpenFolder(dir)
	if err != nil {
		return nil, 0, err
	}
	if f == nil {
		return nil, 0, fmt.Errorf("bodyindex: %s: no body index: %w", dir, ErrNoPlace)
	}
	defer f.Close()
	fi := -1
	for i := range f.files {
		if f.files[i].Name == name {
			fi = i
			break
		}
	}
	if fi < 0 {
		return nil, 0, fmt.Errorf("bodyindex: %s: no file %q: %w", dir, name, ErrNoPlace)
	}
	found, lastNo := false, 0
	for pi, r := range f.refs {
		if fi < r.FirstFile || fi > r.LastFile {
			continue
		}
		p := f.parts[pi]
		if p == nil {
			return nil, 0, f.errs[pi]
		}
		segs, err := p.fileSegments(name, place)
		if err != nil {
			return nil, 0, err
		}
		cache := map[int][]string{}
		for _, s := range segs {
			found = true
			if lines, err = p.windowLines(s, s.LineNo == lastNo, first, last, lines, cache); err != nil {
				return nil, 0, err
			}
			lastNo = s.LineNo + s.Lines - 1
			total = max(total, lastNo)
		}
	}
	if !found {
		return nil, 0, fmt.Errorf("bodyindex: %s: no place %q in %q: %w", dir, place, name, ErrNoPlace)
	}
	return lines, total, nil
}

// fileSegments returns the part's segments of one place of the file name.
func (p *Part) fileSegments(name, place string) ([]Segment, error) {
	if err := p.parseTables(); err != nil {
		return nil, err
	}
	local := -1
	for k, n := range p.files {
		if n == name {
			local = k
		}
	}
	var out []Segment
	for _, s := range p.segs {
		if s.File == local && s.Place == place {
			out = append(out, s)
		}
	}
	return out, nil
}

// windowLines appends to out the lines of segment s numbered first to
// last. When s starts with a continuation line (cont: its number is that
// of the line before it, doc.go), that line is not read: it marks the
// line before it Continued. So a window reads the blocks of its lines'
// first pieces only, however many pieces a line has.
func (p *Part) windowLines(s Segment, cont bool, first, last int, out []PlaceLine, cache map[int][]string) ([]PlaceLine, error) {
	from := s.LineNo
	if cont {
		if n := len(out); n > 0 && out[n-1].No == s.LineNo {
			out[n-1].Continued = true
		}
		from++
	}
	for no := max(first, from); no <= min(last, s.LineNo+s.Lines-1); no++ {
		text, err := p.lineAt(s.FirstLine+no-s.LineNo, cache)
		if err != nil {
			return nil, err
		}
		out = append(out, PlaceLine{No: no, Text: text})
	}
	return out, nil
}

// lineAt returns the original text of line li of the part, decoding its
// block once per cache.
func (p *Part) lineAt(li int, cache map[int][]string) (string, error) {
	b := p.blockHolding(li)
	lines, ok := cache[b]
	if !ok {
		text, err := p.Original(b)
		if err != nil {
			return "", err
		}
		lines = strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
		cache[b] = lines
	}
	first, end := p.BlockLines(b)
	if li < first || li >= end || li-first >= len(lines) {
		return "", p.bad(p.segOff, "line %d outside its block", li)
	}
	return lines[li-first], nil
}
