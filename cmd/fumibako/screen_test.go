package main

import (
	"strings"
	"unicode/utf8"
)

// screen is a small terminal emulator for the tests of what `fumibako
// index` leaves on a terminal: printable text overwrites cells at the
// cursor, \r returns to column 0, \n moves to the next line, ESC[K clears
// to the end of the line, other escape sequences (colours) are ignored, and
// text past the last column wraps as a real terminal does.
type screen struct {
	cols  int
	lines [][]rune // 0 marks the second cell of a wide character
	row   int
	col   int
}

func newScreen(cols int) *screen { return &screen{cols: cols, lines: [][]rune{nil}} }

func (s *screen) Write(p []byte) (int, error) {
	s.feed(string(p))
	return len(p), nil
}

func (s *screen) feed(text string) {
	for i := 0; i < len(text); {
		if text[i] == 0x1b && i+1 < len(text) && text[i+1] == '[' {
			j := i + 2
			for j < len(text) && (text[j] < 0x40 || text[j] > 0x7e) {
				j++
			}
			if j < len(text) && text[j] == 'K' {
				line := s.lines[s.row]
				if s.col < len(line) {
					s.lines[s.row] = line[:s.col]
				}
			}
			i = j + 1
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch r {
		case '\r':
			s.col = 0
		case '\n':
			s.newline()
		default:
			w := runeWidth(r)
			if w == 0 {
				continue
			}
			if s.col+w > s.cols {
				s.newline()
			}
			s.put(r)
			if w == 2 {
				s.put(0)
			}
		}
	}
}

func (s *screen) newline() {
	s.row++
	s.col = 0
	if s.row == len(s.lines) {
		s.lines = append(s.lines, nil)
	}
}

func (s *screen) put(r rune) {
	line := s.lines[s.row]
	for len(line) <= s.col {
		line = append(line, ' ')
	}
	line[s.col] = r
	s.lines[s.row] = line
	s.col++
}

// text returns the screen and scrollback, one string per line, without
// trailing blanks and trailing empty lines.
func (s *screen) text() []string {
	var out []string
	for _, l := range s.lines {
		var b strings.Builder
		for _, r := range l {
			if r != 0 {
				b.WriteRune(r)
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
