package ingestlist

import (
	"strconv"
	"strings"
	"time"
)

// normalizeTime reads a date-time cell as the seed writes it
// (yyyy/MM/dd HH:mm:ss) or as Excel re-formats it when it saves the list
// again: the date with / or - and months, days and hours without their
// leading zero, the seconds left out (2026/12/1 18:10, Excel's display of a
// date-time on a Japanese system), fractions of a second, T between date and
// time. It returns the cell in the seed's form; minutes is true when the
// cell had no seconds (they are written as :00). An empty cell stays empty.
func normalizeTime(s string) (out string, minutes, ok bool) {
	if s == "" {
		return "", false, true
	}
	if len(s) == len(fileTimeLayout) && isSeedTime(s) {
		return s, false, true
	}
	date, clock, found := strings.Cut(strings.TrimSpace(s), " ")
	if !found {
		date, clock, found = strings.Cut(s, "T")
	}
	if !found {
		return "", false, false
	}
	clock = strings.TrimSpace(clock)
	sep := "/"
	if strings.Contains(date, "-") {
		sep = "-"
	}
	d := strings.Split(date, sep)
	c := strings.Split(clock, ":")
	if len(d) != 3 || len(c) < 2 || len(c) > 3 {
		return "", false, false
	}
	if len(c) == 3 {
		c[2], _, _ = strings.Cut(c[2], ".")
	}
	y, ok1 := number(d[0], 4, 4)
	mo, ok2 := number(d[1], 1, 2)
	day, ok3 := number(d[2], 1, 2)
	h, ok4 := number(c[0], 1, 2)
	mi, ok5 := number(c[1], 2, 2)
	sec, ok6 := 0, true
	if len(c) == 3 {
		sec, ok6 = number(c[2], 2, 2)
	}
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return "", false, false
	}
	t := time.Date(y, time.Month(mo), day, h, mi, sec, 0, time.UTC)
	if t.Year() != y || int(t.Month()) != mo || t.Day() != day || t.Hour() != h || t.Minute() != mi || t.Second() != sec {
		return "", false, false
	}
	return t.Format(fileTimeLayout), len(c) == 2, true
}

// isSeedTime reports whether s (19 bytes) has the shape
// dddd/dd/dd dd:dd:dd.
func isSeedTime(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 4, 7:
			if c != '/' {
				return false
			}
		case 10:
			if c != ' ' {
				return false
			}
		case 13, 16:
			if c != ':' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// number parses min to max ASCII digits.
func number(s string, min, max int) (int, bool) {
	if len(s) < min || len(s) > max || !digits(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
