package pdf

import (
	"bytes"
	"encoding/hex"
	"unicode/utf16"
)

// A font's ToUnicode CMap (PDF 32000 9.10.3, Adobe Technical Note #5411),
// read only to tell whether a CID TrueType font's map is broken
// (fontdicts.go): the text of each code, from
//
//	n beginbfchar  <code> <UTF-16BE text>  … endbfchar
//	n beginbfrange <lo> <hi> <UTF-16BE text> … endbfrange
//	               (codes lo–hi, the text's last unit counting up)
//	n beginbfrange <lo> <hi> [<text> <text> …] … endbfrange
//
// Codes are big-endian, one to four bytes. Anything else (codespace
// ranges, comments, PostScript around the sections) is skipped; a broken
// entry ends its section; at most maxCMapCodes codes are read.

// maxCMapCodes bounds the codes one CMap may map.
const maxCMapCodes = 1 << 16

// parseToUnicode returns a ToUnicode CMap's code → text.
func parseToUnicode(b []byte) map[uint32]string {
	m := map[uint32]string{}
	toks := cmapTokens(b)
	for i := 0; i < len(toks); i++ {
		switch string(toks[i]) {
		case "beginbfchar":
			for i++; i+1 < len(toks) && string(toks[i]) != "endbfchar"; i += 2 {
				code, ok1 := cmapCode(toks[i])
				text, ok2 := cmapText(toks[i+1])
				if !ok1 || !ok2 || len(m) >= maxCMapCodes {
					break
				}
				m[code] = text
			}
		case "beginbfrange":
			for i++; i+2 < len(toks) && string(toks[i]) != "endbfrange"; i += 3 {
				lo, ok1 := cmapCode(toks[i])
				hi, ok2 := cmapCode(toks[i+1])
				if !ok1 || !ok2 || hi < lo || hi-lo >= maxCMapCodes || len(m)+int(hi-lo) >= maxCMapCodes {
					break
				}
				if string(toks[i+2]) == "[" {
					j := i + 3
					for c := lo; c <= hi && j < len(toks) && string(toks[j]) != "]"; c, j = c+1, j+1 {
						if t, ok := cmapText(toks[j]); ok {
							m[c] = t
						}
					}
					for j < len(toks) && string(toks[j]) != "]" {
						j++
					}
					i = j - 2
					continue
				}
				units, ok := cmapUnits(toks[i+2])
				if !ok || len(units) == 0 {
					break
				}
				for c := lo; c <= hi; c++ {
					m[c] = string(utf16.Decode(units))
					units = append([]uint16(nil), units...)
					units[len(units)-1]++
				}
			}
		}
	}
	return m
}

// cmapTokens splits a CMap into tokens: <hex> strings, [ and ], words.
func cmapTokens(b []byte) [][]byte {
	var toks [][]byte
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '%':
			for i < len(b) && b[i] != '\n' && b[i] != '\r' {
				i++
			}
		case c == '<':
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return toks
			}
			toks = append(toks, b[i:i+j+1])
			i += j + 1
		case c == '[' || c == ']':
			toks = append(toks, b[i:i+1])
			i++
		case c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0:
			i++
		default:
			j := i
			for j < len(b) && !bytes.ContainsRune([]byte(" \n\r\t\f\x00<>[]%"), rune(b[j])) {
				j++
			}
			if j == i {
				j++
			}
			toks = append(toks, b[i:j])
			i = j
		}
	}
	return toks
}

// cmapHex decodes a <hex> token (white space inside allowed).
func cmapHex(t []byte) ([]byte, bool) {
	if len(t) < 2 || t[0] != '<' || t[len(t)-1] != '>' {
		return nil, false
	}
	h := bytes.Join(bytes.Fields(t[1:len(t)-1]), nil)
	if len(h)%2 == 1 {
		h = append(h, '0')
	}
	out := make([]byte, len(h)/2)
	if _, err := hex.Decode(out, h); err != nil {
		return nil, false
	}
	return out, true
}

func cmapCode(t []byte) (uint32, bool) {
	b, ok := cmapHex(t)
	if !ok || len(b) == 0 || len(b) > 4 {
		return 0, false
	}
	var c uint32
	for _, x := range b {
		c = c<<8 | uint32(x)
	}
	return c, true
}

func cmapUnits(t []byte) ([]uint16, bool) {
	b, ok := cmapHex(t)
	if !ok || len(b)%2 == 1 || len(b) > 512 {
		return nil, false
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return units, true
}

func cmapText(t []byte) (string, bool) {
	units, ok := cmapUnits(t)
	if !ok || len(units) == 0 {
		return "", false
	}
	return string(utf16.Decode(units)), true
}
