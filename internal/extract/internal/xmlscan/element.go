package xmlscan

import (
	"io"
)

// EachInElement calls visit for every token after the current start
// element up to and including its end; an empty element (<x/>) has none.
// visit may read on (skip an element, read its text); an error it returns
// ends the walk.
func (s *Scanner) EachInElement(visit func() error) error {
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
		if err := visit(); err != nil {
			return err
		}
	}
	return nil
}

// ElementText returns the character data of the current start element up
// to its end (nested elements' text included).
func (s *Scanner) ElementText() (string, error) {
	s.acc = s.acc[:0]
	err := s.EachInElement(func() error {
		if s.Kind == Text {
			s.acc = append(s.acc, s.Data...)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return string(s.acc), nil
}

// TextIn returns the character data of the elements named in (by local
// name) up to the end of the current start element, leaving out what
// lies inside elements named out: a spreadsheet string item's t
// elements outside its rPh (phonetic guides).
func (s *Scanner) TextIn(in, out string) (string, error) {
	s.acc = s.acc[:0]
	inside, outside := 0, 0
	err := s.EachInElement(func() error {
		switch s.Kind {
		case Start:
			switch string(s.Name) {
			case out:
				outside++
			case in:
				if outside == 0 {
					inside++
				}
			}
		case End:
			switch string(s.Name) {
			case out:
				outside--
			case in:
				if inside > 0 {
					inside--
				}
			}
		case Text:
			if inside > 0 {
				s.acc = append(s.acc, s.Data...)
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return string(s.acc), nil
}
