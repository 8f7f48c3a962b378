//go:build ignore

// gen writes the seed corpus of FuzzText: one small file per encoding rule
// of reference/extraction.md §12. Run: go run gen.go (in this folder).
package main

import (
	"os"
	"unicode/utf16"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
)

const doc = "見積書です\r\n品名\t数量  \r\n\r\nﾃﾞｰﾀ　合計\n"

func u16(s string, be bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if be {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

func enc(e encoding.Encoding) []byte {
	b, err := e.NewEncoder().Bytes([]byte(doc))
	if err != nil {
		panic(err)
	}
	return b
}

func main() {
	files := map[string][]byte{
		"utf8.txt":         []byte(doc),
		"utf8-bom.txt":     append([]byte{0xEF, 0xBB, 0xBF}, doc...),
		"utf16le-bom.txt":  append([]byte{0xFF, 0xFE}, u16(doc, false)...),
		"utf16be.txt":      u16("Total 12\r\n", true),
		"utf16le-kana.txt": u16("あいうえおかきくけこ", false),
		"utf32.txt":        {0xFF, 0xFE, 0, 0, 'a', 0, 0, 0},
		"sjis.txt":         enc(japanese.ShiftJIS),
		"eucjp.txt":        enc(japanese.EUCJP),
		"iso2022jp.txt":    enc(japanese.ISO2022JP),
		"binary.txt":       {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D},
	}
	for name, b := range files {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			panic(err)
		}
	}
}
