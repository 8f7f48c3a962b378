package sheet

import (
	"io"
)

// eachInElement calls visit for every token after the current start
// element up to and including its end; an empty element (<x/>) has none.
func (s *Scanner) eachInElement(visit func()) error {
	if s.PendingEnd {
		return s.Next() // the end of <x/>, which next returns first
	}
	target := len(s.ends) - 1
	for len(s.ends) > target {
		if err := s.Next(); err != nil {
			if err == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return err
		}
		visit()
	}
	return nil
}

// ElementText returns the character data of the current start element up
// to its end (nested elements' text included).
func (s *Scanner) ElementText() (string, error) {
	s.acc = s.acc[:0]
	err := s.eachInElement(func() {
		if s.Kind == scanText {
			s.acc = append(s.acc, s.text...)
		}
	})
	if err != nil {
		return "", err
	}
	return string(s.acc), nil
}

// RichText reads the rest of a string item (si, is, or a comment's text)
// whose start element is current: the t elements outside rPh (phonetic
// guides), concatenated, with _xHHHH_ escapes decoded.
func (s *Scanner) RichText() (string, error) {
	s.acc = s.acc[:0]
	inT, rph := 0, 0
	err := s.eachInElement(func() {
		switch s.Kind {
		case ScanStart:
			switch string(s.Name) {
			case "rPh":
				rph++
			case "t":
				if rph == 0 {
					inT++
				}
			}
		case scanEnd:
			switch string(s.Name) {
			case "rPh":
				rph--
			case "t":
				if inT > 0 {
					inT--
				}
			}
		case scanText:
			if inT > 0 {
				s.acc = append(s.acc, s.text...)
			}
		}
	})
	if err != nil {
		return "", err
	}
	return Unescape(string(s.acc)), nil
}
