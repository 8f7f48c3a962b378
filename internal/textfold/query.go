package textfold

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A Piece is a run of a folded query word: the folded text it may be in a
// line, first the word's own fold, then the others.
type Piece []string

// Pattern folds a query word into pieces. A word folds to one piece but
// where a line can spell a character of it in another way that folding
// does not join:
//
//   - a が or か between kanji (or after a digit) may also be ヶ, ヵ, ケ or
//     カ in the line (霞が関 finds 霞ヶ関, 一か月 finds 一ヶ月), and such a
//     ヶ may be が or か (霞ヶ関 finds 霞が関); a が anywhere else matches
//     only が (が still finds 彼が来た, and only there);
//   - a ケ or カ at the start or end of the word, where the kanji on its
//     other side is not in the word, may be ヶ in the line (霞ケ finds
//     霞ケ関, folded 霞ヶ関).
func Pattern(word string) []Piece {
	src := []byte(word)
	var sc Scanner
	sc.Reset(src)
	var out []Piece
	var fixed []byte
	flush := func() {
		if len(fixed) > 0 {
			out = append(out, Piece{string(fixed)})
			fixed = fixed[:0]
		}
	}
	for {
		prev := sc.prev
		if !sc.Scan() {
			break
		}
		start := sc.start
		r, _ := utf8.DecodeRune(src[start:])
		f := string(sc.out)
		leftKanji := kanjiBefore(prev)
		rightKanji, atEnd := sc.hanAt(sc.next), sc.next >= len(src)
		var alts Piece
		switch {
		case (r == 'が' || r == 'か') && (leftKanji || start == 0) && (rightKanji || atEnd) && !(start == 0 && atEnd):
			alts = Piece{f, "ヶ"}
		case f == "ヶ" && leftKanji && rightKanji:
			alts = Piece{f, "が", "か"}
		case (f == "ケ" || f == "カ") && (start == 0 && rightKanji || atEnd && leftKanji) && !(start == 0 && atEnd):
			alts = Piece{f, "ヶ"}
		}
		if alts == nil {
			fixed = append(fixed, sc.out...)
			continue
		}
		flush()
		out = append(out, alts)
	}
	flush()
	return out
}

// Regexp returns the RE2 source that matches the pieces in folded text
// (with kana, in folded text after AppendKana): each piece one of its
// alternatives, in order.
func Regexp(pieces []Piece, kana bool) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString("(?:")
		for k, a := range p {
			if k > 0 {
				b.WriteByte('|')
			}
			if kana {
				a = Kana(a)
			}
			b.WriteString(regexp.QuoteMeta(a))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// CaseNeedle returns folded text that the folded copy of any line holding
// s exactly (as --case matches) also holds, for the n-gram filter of an
// exact search. String(s) itself is not enough at the ends, where folding
// looks past s: a space next to Japanese, a ケ or カ next to a kanji, a
// long vowel that may end a katakana word, a kana that a sound mark after
// it composes with, a sound mark that composes with the kana before it.
// Those ends are left out; the result may be empty.
func CaseNeedle(s string) string {
	for {
		t := trimLeft(trimRight(s))
		if t == s {
			break
		}
		s = t
	}
	// A katakana word at the start that ends in ー inside s may be longer
	// in the line, where that ー is then dropped: start after it.
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isKatakana(foldRune(r)) && !isMark(r) {
			break
		}
		i += n
		if (r == 'ー' || r == 'ｰ') && i < len(s) {
			if r2, _ := utf8.DecodeRuneInString(s[i:]); !isKatakana(foldRune(r2)) && !isMark(r2) {
				return CaseNeedle(s[i:])
			}
		}
	}
	return String(s)
}

// trimLeft drops a rune at the start of s that folds by what is before it.
func trimLeft(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	if isMark(r) || spaceLen([]byte(s), 0) > 0 || selectorLen([]byte(s), 0) > 0 {
		return s[n:]
	}
	switch foldRune(r) {
	case 'ケ', 'カ':
		if m, _ := utf8.DecodeRuneInString(s[n:]); !isMark(m) {
			return s[n:]
		}
	}
	return s
}

// trimRight drops a rune at the end of s that folds by what follows it.
func trimRight(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeLastRuneInString(s)
	b := []byte(s[len(s)-n:])
	if spaceLen(b, 0) > 0 || composable(foldRune(r)) {
		return s[:len(s)-n]
	}
	switch foldRune(r) {
	case 'ケ', 'カ', 'ー':
		return s[:len(s)-n]
	}
	return s
}

// MapSpans turns spans [start, end) of the folded form of s into spans of
// s, in place. The spans must be ascending and fall on rune boundaries of
// the folded text. A span starts where the source of its first folded unit
// starts and ends where the source of its last one ends, followed by the
// long vowels and selectors that folded to nothing right after it (the
// highlight of サーバ in サーバー構成 is サーバー), but not by spaces (見積
// in 見積 書 is 見積). Spaces inside a span are part of it (見積書 in
// 見　積　書 is the whole heading).
func MapSpans(s []byte, spans [][2]int) {
	var sc Scanner
	sc.Reset(s)
	k, fpos := 0, 0
	inSpan := false
	extendFrom := -1 // where a span just ended: dropped units there extend it
	// place maps the spans that start or end inside the folded bytes
	// [fpos, fpos+fl) of source [src, srcEnd); linear is a run of units
	// that fold to their own bytes, where offsets map one to one.
	place := func(fl, src, srcEnd int, linear bool) {
		for k < len(spans) {
			if !inSpan {
				a := spans[k][0]
				if a >= fpos+fl {
					return
				}
				spans[k][0] = src
				if linear && a > fpos {
					spans[k][0] = src + a - fpos
				}
				inSpan = true
				if spans[k][1] <= a {
					spans[k][1] = spans[k][0]
					inSpan = false
					k++
					continue
				}
			}
			b := spans[k][1]
			if b > fpos+fl {
				return
			}
			spans[k][1] = srcEnd
			if linear {
				spans[k][1] = src + b - fpos
			}
			if spans[k][1] == srcEnd {
				extendFrom = srcEnd
			}
			inSpan = false
			k++
		}
	}
	for k < len(spans) || extendFrom >= 0 {
		if n := sc.SkipSame(); n > 0 {
			extendFrom = -1
			place(n, sc.next-n, sc.next, true)
			fpos += n
			continue
		}
		if !sc.Scan() {
			break
		}
		fl := len(sc.out)
		if fl == 0 {
			if extendFrom == sc.start && spaceLen(s, sc.start) == 0 {
				// A dropped long vowel or selector right after a span.
				spans[k-1][1] = sc.next
				extendFrom = sc.next
			}
			continue
		}
		extendFrom = -1
		place(fl, sc.start, sc.next, false)
		fpos += fl
	}
	for ; k < len(spans); k++ {
		if !inSpan {
			spans[k][0] = len(s)
		}
		spans[k][1] = len(s)
		inSpan = false
	}
}
