package ocr

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"unicode"
)

// word is one level-5 row of Tesseract's TSV.
type word struct {
	line lineKey
	conf float64
	text string
}

type lineKey struct{ page, block, par, line int }

// page is a parsed recognition: its words in Tesseract's order.
type page struct {
	words []word
}

// parseTSV reads Tesseract's tsv output (doc.go "TSV"): malformed lines
// and rows above word level are skipped.
func parseTSV(b []byte) page {
	var p page
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		var n [5]int
		ok := true
		for i := range n {
			v, err := strconv.Atoi(f[1+i])
			if err != nil {
				ok = false
				break
			}
			n[i] = v
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		text := strings.TrimSpace(strings.Join(f[11:], "\t"))
		if !ok || err != nil || text == "" {
			continue
		}
		p.words = append(p.words, word{line: lineKey{n[0], n[1], n[2], n[3]}, conf: conf, text: text})
	}
	return p
}

// lines joins the words at or above min confidence into lines (doc.go
// "TSV"), and scores them: the sum of confidence × characters, the kept
// characters and their mean confidence.
func (p page) lines(min float64) (out []string, score float64, chars int, mean float64) {
	var cur strings.Builder
	var prev lineKey
	started := false
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
		}
		cur.Reset()
	}
	for i, w := range p.words {
		if w.conf < min && !(unsureLetter(w.text) && i > 0 && i+1 < len(p.words) &&
			sure(p.words[i-1], w.line, min) && sure(p.words[i+1], w.line, min)) {
			continue
		}
		if !started || w.line != prev {
			flush()
			started, prev = true, w.line
		} else if needSpace(cur.String(), w.text) {
			cur.WriteByte(' ')
		}
		cur.WriteString(w.text)
		n := len([]rune(w.text))
		chars += n
		score += w.conf * float64(n)
	}
	flush()
	if chars > 0 {
		mean = score / float64(chars)
	}
	return out, score, chars, mean
}

// sure reports a word of line at or above min confidence.
func sure(w word, line lineKey, min float64) bool { return w.line == line && w.conf >= min }

// unsureLetter reports a word of one or two kanji or kana: such a word
// under the threshold between two sure words of its line is kept, since
// Tesseract gives some plainly printed characters (議, 納 in vertical
// writing) a confidence of 0, while what it reads from noise and stains
// is symbols and Latin letters.
func unsureLetter(s string) bool {
	n := 0
	for _, r := range s {
		if !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
			return false
		}
		n++
	}
	return n >= 1 && n <= 2
}

// needSpace reports whether a space goes between a line so far and the
// next word: only between two non-CJK characters (Latin words, numbers).
func needSpace(before, next string) bool {
	if before == "" || next == "" {
		return false
	}
	last := []rune(before)
	return !isCJK(last[len(last)-1]) && !isCJK([]rune(next)[0])
}

// isCJK reports a character of Japanese or Chinese writing, whose words
// are not separated by spaces: kana, kanji, CJK symbols and punctuation,
// full-width forms.
func isCJK(r rune) bool {
	switch {
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
		return true
	case r >= 0x3000 && r <= 0x30FF, // CJK symbols, kana, ー
		r >= 0xFF00 && r <= 0xFFEF, // full-width and half-width forms
		r >= 0x3200 && r <= 0x33FF: // enclosed CJK, compatibility (㈱ ㎡)
		return true
	}
	return false
}
