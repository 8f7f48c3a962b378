package sheet

import "github.com/fumibako/fumibako/internal/extract/internal/xmlscan"

// RichText reads the rest of a string item (si, is, or a comment's text)
// whose start element is s's current one: the t elements outside rPh
// (phonetic guides), concatenated, with _xHHHH_ escapes decoded.
func RichText(s *xmlscan.Scanner) (string, error) {
	text, err := s.TextIn("t", "rPh")
	if err != nil {
		return "", err
	}
	return Unescape(text), nil
}
