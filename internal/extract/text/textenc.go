package text

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// textEncoding is what detectTextEncoding decided.
type textEncoding int

const (
	encRejected textEncoding = iota
	encUTF8BOM
	encUTF16LEBOM
	encUTF16BEBOM
	encUTF16LE // BOM-less, by NUL skew or Japanese UTF-16
	encUTF16BE
	encISO2022JP
	encUTF8
	encShiftJIS
	encEUCJP
)

func (e textEncoding) String() string {
	return [...]string{"rejected", "UTF-8 (BOM)", "UTF-16LE (BOM)", "UTF-16BE (BOM)", "UTF-16LE", "UTF-16BE",
		"ISO-2022-JP", "UTF-8", "Shift_JIS", "EUC-JP"}[e]
}

// sniffWindow is how much of a file the UTF-16 rules look at
// (reference/extraction.md §13, "encoding sniff: first 64 KB").
const sniffWindow = 64 << 10

// detectTextEncoding decides the encoding of a whole text file from its
// bytes (reference/extraction.md §12, detectTextEncoding); the first rule
// that applies wins and anything ambiguous is rejected:
//
//  1. BOMs: UTF-32 (FF FE 00 00, 00 00 FE FF) rejected; EF BB BF UTF-8;
//     FF FE UTF-16LE; FE FF UTF-16BE.
//  2. BOM-less UTF-16 by NUL skew in the first 64 KB cut to an even length:
//     with N byte pairs, O NULs at odd and E at even offsets, LE when
//     O ≥ 20 % of N and E ≤ O/10, BE when E ≥ 20 % of N and O ≤ E/10.
//  3. Japanese UTF-16 without NULs: the first 64 KB (8 bytes at least) read
//     both ways; a reading qualifies with kana ≥ 20 % and other characters
//     ≤ 5 % of its characters (kana ≥ 90 % when every byte is 7-bit); it
//     wins only if it is the only one that qualifies.
//  4. ISO-2022-JP: 7-bit only with ESC $ B or ESC $ @, every escape one of
//     ESC $ B, ESC $ @, ESC ( B, ESC ( J, ESC ( I; ESC $ B or ESC $ @ with
//     any other escape or an 8-bit byte rejects the file.
//  5. Strict UTF-8 (pure ASCII ends here).
//  6. Shift_JIS (code page 932) and EUC-JP (sjisOrEUC).
func detectTextEncoding(b []byte) textEncoding {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}), bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return encRejected
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return encUTF8BOM
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return encUTF16LEBOM
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return encUTF16BEBOM
	}
	w := b[:min(len(b), sniffWindow)]
	w = w[:len(w)&^1]
	if bytes.IndexByte(w, 0) >= 0 {
		// Without a NUL, rule 2 cannot apply (O = E = 0).
		if e, ok := utf16ByNULs(w); ok {
			return e
		}
	} else if e, ok := japaneseUTF16(w); ok {
		return e
	}
	if e, ok := iso2022JP(b); ok {
		return e
	}
	if validUTF8(b) {
		return encUTF8
	}
	return sjisOrEUC(b)
}

// utf16ByNULs is rule 2.
func utf16ByNULs(w []byte) (textEncoding, bool) {
	n := len(w) / 2
	if n == 0 {
		return encRejected, false
	}
	var odd, even int
	for i, c := range w {
		if c == 0 {
			if i&1 == 1 {
				odd++
			} else {
				even++
			}
		}
	}
	switch {
	case odd*5 >= n && even*10 <= odd:
		return encUTF16LE, true
	case even*5 >= n && odd*10 <= even:
		return encUTF16BE, true
	}
	return encRejected, false
}

// japaneseUTF16 is rule 3. A reading is read in full (utf16Qualifies)
// only when it holds enough kana to qualify at all (enoughKana): Japanese
// UTF-8, English and Shift_JIS text have next to none, and reading their
// 64 KB both ways was 8 % of the worker's CPU on a share of small text
// files (issue 35).
func japaneseUTF16(w []byte) (textEncoding, bool) {
	if len(w) < 8 {
		return encRejected, false
	}
	mayLE, mayBE := enoughKana(w)
	if !mayLE && !mayBE {
		return encRejected, false
	}
	sevenBit := true
	for _, c := range w {
		if c >= 0x80 {
			sevenBit = false
			break
		}
	}
	le := mayLE && utf16Qualifies(w, false, sevenBit)
	be := mayBE && utf16Qualifies(w, true, sevenBit)
	switch {
	case le && !be:
		return encUTF16LE, true
	case be && !le:
		return encUTF16BE, true
	}
	return encRejected, false
}

// enoughKana reports, for the little- and the big-endian reading of w (of
// even length), whether it has enough pairs that read as kana to pass rule
// 3: false proves that utf16Qualifies says false.
//
// A reading of P pairs has at least P/2 characters (a surrogate pair, two
// pairs, is the only character made of more than one), and both of rule
// 3's shares need kana ≥ 20 % of the characters (≥ 90 % when every byte
// is 7-bit), so a reading with fewer than P/10 kana pairs never qualifies
// (a kana pair is never half of a surrogate pair: utf16Qualifies counts
// at most these). Every kana has 0x30 or 0xFF as its high byte, which
// UTF-8 has only as the digit 0 and never, so a count of those two bytes
// (bytes.Count, SIMD) settles most files; the pairs are looked at one by
// one only when those bytes are 5 % of w or more (a table full of zeros).
func enoughKana(w []byte) (le, be bool) {
	pairs := len(w) / 2
	if (bytes.Count(w, []byte{0x30})+bytes.Count(w, []byte{0xFF}))*10 < pairs {
		// Both readings' kana pairs together are at most this count.
		return false, false
	}
	var kanaLE, kanaBE int
	for i := 0; i+1 < len(w); i += 2 {
		lo, hi := w[i], w[i+1]
		if (hi == 0x30 || hi == 0xFF) && isKana(rune(hi)<<8|rune(lo)) {
			kanaLE++
		}
		if (lo == 0x30 || lo == 0xFF) && isKana(rune(lo)<<8|rune(hi)) {
			kanaBE++
		}
	}
	return kanaLE*10 >= pairs, kanaBE*10 >= pairs
}

// utf16Qualifies reads w as UTF-16 and applies rule 3's shares. The
// reading has at most len(w)/2 characters, so it stops as soon as the
// characters that may not exceed a share do so of that bound (the other
// characters, or all but kana when every byte is 7-bit): Japanese UTF-8
// read as UTF-16 fails within a few KB instead of reading all 64 (issue 21:
// 9 % of a build of text files was this loop).
func utf16Qualifies(w []byte, bigEndian, sevenBit bool) bool {
	var total, kana, other int
	most := len(w) / 2
	for i := 0; i+1 < len(w); i += 2 {
		if sevenBit && (total-kana)*10 > most || !sevenBit && other*20 > most {
			return false
		}
		u := rune(w[i]) | rune(w[i+1])<<8
		if bigEndian {
			u = rune(w[i])<<8 | rune(w[i+1])
		}
		if u >= 0xD800 && u < 0xE000 {
			// Surrogates: a valid pair counts as one ordinary character.
			if u < 0xDC00 && i+3 < len(w) {
				v := rune(w[i+2]) | rune(w[i+3])<<8
				if bigEndian {
					v = rune(w[i+2])<<8 | rune(w[i+3])
				}
				if v >= 0xDC00 && v < 0xE000 {
					total++
					i += 2
					continue
				}
			}
			total++
			other++
			continue
		}
		total++
		switch {
		case isKana(u):
			kana++
		case !isJapaneseTextRune(u):
			other++
		}
	}
	if total == 0 {
		return false
	}
	if sevenBit {
		return kana*10 >= total*9
	}
	return kana*5 >= total && other*20 <= total
}

// isKana reports hiragana, katakana (with the prolonged sound mark and
// iteration marks) and half-width katakana.
func isKana(r rune) bool {
	return (r >= 0x3041 && r <= 0x309F) || (r >= 0x30A0 && r <= 0x30FF) || (r >= 0xFF66 && r <= 0xFF9F)
}

// isJapaneseTextRune reports the characters Japanese text is made of besides
// kana: printable ASCII and TAB/CR/LF, Latin-1 letters, Greek and Cyrillic
// (in JIS X 0208), general punctuation, letterlike symbols, number forms,
// arrows, mathematical operators, technical symbols, enclosed alphanumerics,
// box drawing, geometric shapes, miscellaneous symbols, CJK symbols and
// punctuation, enclosed CJK letters, CJK compatibility, CJK ideographs
// (extension A, unified, compatibility) and half/full-width forms. Anything
// else (controls, Hangul, private use, unassigned code points) is "other".
func isJapaneseTextRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r < 0x7F):
		return true
	case r >= 0xA0 && r <= 0xFF,
		r >= 0x0391 && r <= 0x03C9,
		r >= 0x0401 && r <= 0x0451,
		r >= 0x2000 && r <= 0x206F,
		r >= 0x2100 && r <= 0x27BF,
		r >= 0x3000 && r <= 0x303F,
		r >= 0x3200 && r <= 0x33FF,
		r >= 0x3400 && r <= 0x4DBF,
		r >= 0x4E00 && r <= 0x9FFF,
		r >= 0xF900 && r <= 0xFAFF,
		r >= 0xFF01 && r <= 0xFFEF:
		return true
	}
	return false
}

// iso2022JP is rule 4. ok with encRejected means "this is ISO-2022-JP gone
// wrong": the file is rejected without trying the later rules.
func iso2022JP(b []byte) (textEncoding, bool) {
	if !bytes.Contains(b, []byte("\x1b$B")) && !bytes.Contains(b, []byte("\x1b$@")) {
		return encRejected, false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c >= 0x80 {
			return encRejected, true
		}
		if c != 0x1b {
			continue
		}
		if i+2 >= len(b) {
			return encRejected, true
		}
		switch string(b[i+1 : i+3]) {
		case "$B", "$@", "(B", "(J", "(I":
			i += 2
		default:
			return encRejected, true
		}
	}
	return encISO2022JP, true
}

// sjisOrEUC is rule 6. Both readings are decoded strictly: neither may
// contain a control character other than TAB, LF, FF and CR, a private-use
// character or U+FFFD. The Shift_JIS reading also needs half-width kana to
// be at most 30 % of its non-ASCII characters, or to look natural
// (naturalHalfWidth); the EUC-JP reading must contain kana. One match wins;
// if both match, EUC-JP wins when the Shift_JIS reading is mostly (over
// half) half-width kana, and otherwise the file is ambiguous and rejected.
func sjisOrEUC(b []byte) textEncoding {
	sj, sjOK := strictDecode(japanese.ShiftJIS, b)
	var sjHalf, sjNonASCII int
	if sjOK {
		sjHalf, sjNonASCII = halfWidthShare(sj)
		sjOK = sjHalf*10 <= sjNonASCII*3 || naturalHalfWidth(sj)
	}
	eu, euOK := strictDecode(japanese.EUCJP, b)
	if euOK {
		euOK = strings.IndexFunc(eu, isKana) >= 0
	}
	switch {
	case sjOK && euOK:
		if sjHalf*2 > sjNonASCII {
			return encEUCJP
		}
		return encRejected
	case sjOK:
		return encShiftJIS
	case euOK:
		return encEUCJP
	}
	return encRejected
}

func strictDecode(e encoding.Encoding, b []byte) (string, bool) {
	out, err := e.NewDecoder().Bytes(b)
	if err != nil {
		return "", false
	}
	s := string(out)
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\f' || r == '\r':
		case r < 0x20 || (r >= 0x7F && r < 0xA0):
			return "", false
		case r == utf8.RuneError:
			return "", false
		case (r >= 0xE000 && r <= 0xF8FF) || r >= 0xF0000:
			return "", false
		}
	}
	return s, true
}

func isHalfWidthKana(r rune) bool { return r >= 0xFF61 && r <= 0xFF9F }

func halfWidthShare(s string) (half, nonASCII int) {
	for _, r := range s {
		if r >= 0x80 {
			nonASCII++
			if isHalfWidthKana(r) {
				half++
			}
		}
	}
	return half, nonASCII
}

// naturalHalfWidth reports whether the half-width kana of a Shift_JIS
// reading look like text written in half-width kana (old host output such
// as "ﾃﾞｰﾀｶﾞ ｱﾘﾏｾﾝ") rather than EUC-JP or binary bytes read as Shift_JIS:
// every voiced mark ﾞ follows a kana that takes it (ｳ, ｶ–ｺ, ｻ–ｿ, ﾀ–ﾄ, ﾊ–ﾎ)
// and every semi-voiced mark ﾟ one of ﾊ–ﾎ; half-width punctuation ｡｢｣､･ is
// at most a tenth of the half-width characters (EUC-JP kana lead bytes A4
// and A5 read as ､ and ･); no half-width run starts with a small kana, a
// prolonged sound mark or a voiced mark; and there is positive evidence: at
// least one voiced mark or prolonged sound mark ｰ inside a run. GBK or Big5
// text read as Shift_JIS ("中文" → ﾖﾐﾎﾄ) has none and stays ambiguous.
func naturalHalfWidth(s string) bool {
	var half, punct, evidence int
	prev := rune(0)
	for _, r := range s {
		if !isHalfWidthKana(r) {
			prev = r
			continue
		}
		half++
		runStart := !isHalfWidthKana(prev)
		switch {
		case r >= 0xFF61 && r <= 0xFF65:
			punct++
		case r == 0xFF9E: // ﾞ
			if !(prev == 0xFF73 || (prev >= 0xFF76 && prev <= 0xFF84) || (prev >= 0xFF8A && prev <= 0xFF8E)) {
				return false
			}
			evidence++
		case r == 0xFF9F: // ﾟ
			if !(prev >= 0xFF8A && prev <= 0xFF8E) {
				return false
			}
			evidence++
		case runStart && r >= 0xFF67 && r <= 0xFF70: // small kana, ｰ
			return false
		case r == 0xFF70:
			evidence++
		}
		prev = r
	}
	return evidence > 0 && punct*10 <= half
}

// decodeText decodes b as detected; ok is false for a rejected file.
// Files with a BOM are decoded with replacement of broken sequences, as a
// BOM-declared reader does; the BOM is dropped. Every other encoding was
// already checked strictly by its rule.
//
// The caller owns b and never changes it afterwards: UTF-8 text, nearly
// every file, is b itself as a string, not a copy of it (a copy of every
// file and its allocation were 11 % of the text reader's CPU, issue 35).
func decodeText(b []byte) (string, textEncoding, bool) {
	enc := detectTextEncoding(b)
	var dec *encoding.Decoder
	switch enc {
	case encRejected:
		return "", enc, false
	case encUTF8BOM:
		return strings.ToValidUTF8(string(b[3:]), "\uFFFD"), enc, true
	case encUTF8:
		return unsafe.String(unsafe.SliceData(b), len(b)), enc, true
	case encUTF16LEBOM:
		b, dec = b[2:], unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
	case encUTF16BEBOM:
		b, dec = b[2:], unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()
	case encUTF16LE:
		dec = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
	case encUTF16BE:
		dec = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()
	case encISO2022JP:
		dec = japanese.ISO2022JP.NewDecoder()
	case encShiftJIS:
		dec = japanese.ShiftJIS.NewDecoder()
	case encEUCJP:
		dec = japanese.EUCJP.NewDecoder()
	}
	out, err := dec.Bytes(b)
	if err != nil {
		return "", enc, false
	}
	s := string(out)
	if enc == encISO2022JP && strings.ContainsRune(s, utf8.RuneError) {
		return "", enc, false
	}
	return s, enc, true
}
