package numfmt

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// BuiltinFormats are the built-in number formats as a Japanese Excel
// shows them (numFmtId without a numFmt element in styles.xml). Ids 5–8 and
// 41–44 are the yen currency and accounting formats; 14 and 22 use the
// Japanese short date yyyy/m/d.
var BuiltinFormats = map[int]string{
	0:  "General",
	1:  "0",
	2:  "0.00",
	3:  "#,##0",
	4:  "#,##0.00",
	5:  `"¥"#,##0;"¥"\-#,##0`,
	6:  `"¥"#,##0;[Red]"¥"\-#,##0`,
	7:  `"¥"#,##0.00;"¥"\-#,##0.00`,
	8:  `"¥"#,##0.00;[Red]"¥"\-#,##0.00`,
	9:  "0%",
	10: "0.00%",
	11: "0.00E+00",
	12: "# ?/?",
	13: "# ??/??",
	14: "yyyy/m/d",
	15: "d-mmm-yy",
	16: "d-mmm",
	17: "mmm-yy",
	18: "h:mm AM/PM",
	19: "h:mm:ss AM/PM",
	20: "h:mm",
	21: "h:mm:ss",
	22: "yyyy/m/d h:mm",
	27: `[$-411]ge.m.d`,
	28: `[$-411]ggge"年"m"月"d"日"`,
	29: `[$-411]ggge"年"m"月"d"日"`,
	30: "m/d/yy",
	31: `yyyy"年"m"月"d"日"`,
	32: `h"時"mm"分"`,
	33: `h"時"mm"分"ss"秒"`,
	34: `yyyy"年"m"月"`,
	35: `m"月"d"日"`,
	36: `[$-411]ge.m.d`,
	37: "#,##0;-#,##0",
	38: "#,##0;[Red]-#,##0",
	39: "#,##0.00;-#,##0.00",
	40: "#,##0.00;[Red]-#,##0.00",
	41: `_ * #,##0_ ;_ * \-#,##0_ ;_ * "-"_ ;_ @_ `,
	42: `_ "¥"* #,##0_ ;_ "¥"* \-#,##0_ ;_ "¥"* "-"_ ;_ @_ `,
	43: `_ * #,##0.00_ ;_ * \-#,##0.00_ ;_ * "-"??_ ;_ @_ `,
	44: `_ "¥"* #,##0.00_ ;_ "¥"* \-#,##0.00_ ;_ "¥"* "-"??_ ;_ @_ `,
	45: "mm:ss",
	46: "[h]:mm:ss",
	47: "mm:ss.0",
	48: "##0.0E+0",
	49: "@",
	50: `[$-411]ge.m.d`,
	51: `[$-411]ggge"年"m"月"d"日"`,
	52: `yyyy"年"m"月"`,
	53: `m"月"d"日"`,
	54: `[$-411]ggge"年"m"月"d"日"`,
	55: `yyyy"年"m"月"`,
	56: `m"月"d"日"`,
	57: `[$-411]ge.m.d`,
	58: `[$-411]ggge"年"m"月"d"日"`,
}

var (
	monthAbbr   = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	monthFull   = [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	dayAbbr     = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	dayFull     = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	dayJa       = [7]string{"日", "月", "火", "水", "木", "金", "土"}
	eraStart    = [5]time.Time{time.Date(1868, 9, 8, 0, 0, 0, 0, time.UTC), time.Date(1912, 7, 30, 0, 0, 0, 0, time.UTC), time.Date(1926, 12, 25, 0, 0, 0, 0, time.UTC), time.Date(1989, 1, 8, 0, 0, 0, 0, time.UTC), time.Date(2019, 5, 1, 0, 0, 0, 0, time.UTC)}
	eraName     = [5]string{"明治", "大正", "昭和", "平成", "令和"}
	eraInitial  = [5]string{"M", "T", "S", "H", "R"}
	maxSerial   = 2958465.0 // 9999-12-31
	kanjiDigits = [2][10]string{
		{"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"},
		{"〇", "壱", "弐", "参", "四", "伍", "六", "七", "八", "九"},
	}
	kanjiUnits = [2][4]string{{"", "十", "百", "千"}, {"", "拾", "百", "阡"}}
	kanjiBig   = [2][4]string{{"", "万", "億", "兆"}, {"", "萬", "億", "兆"}}
)

// civil returns the date of a day serial. In the 1900 system serial 0 is
// 1900/1/0 and serial 60 the nonexistent 1900/2/29 that Excel keeps for
// Lotus compatibility; weekdays follow Excel (serial 1 is a Sunday).
func civil(days int64, date1904 bool) (y, m, d, wd int) {
	if date1904 {
		t := time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(days))
		return t.Year(), int(t.Month()), t.Day(), int(t.Weekday())
	}
	wd = int((days + 6) % 7)
	switch {
	case days == 0:
		return 1900, 1, 0, wd
	case days == 60:
		return 1900, 2, 29, wd
	case days < 60:
		t := time.Date(1899, 12, 31+int(days), 0, 0, 0, 0, time.UTC)
		return t.Year(), int(t.Month()), t.Day(), wd
	}
	t := time.Date(1899, 12, 30+int(days), 0, 0, 0, 0, time.UTC)
	return t.Year(), int(t.Month()), t.Day(), wd
}

// era returns the Japanese era index of a date (Meiji for anything
// earlier).
func era(y, m, d int) int {
	t := time.Date(y, time.Month(m), max(d, 1), 0, 0, 0, 0, time.UTC)
	for i := len(eraStart) - 1; i > 0; i-- {
		if !t.Before(eraStart[i]) {
			return i
		}
	}
	return 0
}

// renderDate renders a date/time section; ok is false for values Excel
// cannot show as a date (negative or after 9999-12-31).
func (s *section) renderDate(v float64, date1904 bool) (string, bool) {
	if v < 0 || v >= maxSerial+1 {
		return "", false
	}
	k := s.subSec
	scale := int64(math.Pow10(k))
	units := int64(math.Round(v * 86400 * float64(scale)))
	perDay := 86400 * scale
	days, rem := units/perDay, units%perDay
	frac, secs := rem%scale, rem/scale
	h, mi, sec := int(secs/3600), int(secs/60%60), int(secs%60)
	y, mo, d, wd := civil(days, date1904)
	var b strings.Builder
	pad2 := func(n int) { b.WriteString(pad(n, 2)) }
	for _, t := range s.toks {
		switch t.kind {
		case xlLit:
			b.WriteString(t.s)
		case subSec:
			fs := pad(int(frac), k)
			n := min(len(t.s)-1, k)
			b.WriteByte('.')
			b.WriteString(fs[:n])
		case date:
			s.writeDateCode(&b, t, dateParts{y: y, mo: mo, d: d, wd: wd, h: h, mi: mi, sec: sec, days: days}, pad2)
		}
	}
	out := b.String()
	if s.dbnum > 0 {
		out = DBNum(out, s.dbnum)
	}
	return out, true
}

type dateParts struct {
	y, mo, d, wd, h, mi, sec int
	days                     int64
}

func (s *section) writeDateCode(b *strings.Builder, t tok, p dateParts, pad2 func(int)) {
	c := t.s
	// num writes a field in as many digits as it takes for a one-letter
	// code ("m"), in at least two for a longer one ("mm").
	num := func(n int) {
		if len(c) == 1 {
			b.WriteString(strconv.Itoa(n))
		} else {
			pad2(n)
		}
	}
	switch {
	case c == "am/pm":
		s.writeAmPm(b, t, p.h)
	case c == "a/p":
		writeAP(b, t, p.h)
	case c[0] == '[':
		writeElapsed(b, c, p)
	case c[0] == 'y':
		if len(c) <= 2 {
			pad2(p.y % 100)
		} else {
			b.WriteString(pad(p.y, 4))
		}
	case c[0] == 'b':
		by := p.y + 543
		if len(c) <= 2 {
			pad2(by % 100)
		} else {
			b.WriteString(strconv.Itoa(by))
		}
	case c[0] == 'm':
		s.writeMonth(b, c, p.mo, num)
	case c[0] == 'n':
		num(p.mi)
	case c[0] == 'd':
		s.writeDay(b, c, p, num)
	case c[0] == 'a':
		b.WriteString(dayJa[p.wd])
		if len(c) >= 4 {
			b.WriteString("曜日")
		}
	case c[0] == 'h':
		h := p.h
		if s.ampm {
			h %= 12
			if h == 0 {
				h = 12
			}
		}
		num(h)
	case c[0] == 's':
		num(p.sec)
	case c[0] == 'g':
		writeEra(b, c, p)
	case c[0] == 'e':
		era := era(p.y, p.mo, p.d)
		num(p.y - eraStart[era].Year() + 1)
	}
}

// writeAmPm writes AM/PM (am/pm, 午前/午後 in a Japanese section) for
// hour h.
func (s *section) writeAmPm(b *strings.Builder, t tok, h int) {
	am := h < 12
	switch {
	case s.ja && am:
		b.WriteString("午前")
	case s.ja:
		b.WriteString("午後")
	case am && t.c == 'a':
		b.WriteString("am")
	case t.c == 'a':
		b.WriteString("pm")
	case am:
		b.WriteString("AM")
	default:
		b.WriteString("PM")
	}
}

// writeAP writes A/P (a/p in lower case) for hour h.
func writeAP(b *strings.Builder, t tok, h int) {
	r := "P"
	if h < 12 {
		r = "A"
	}
	if t.c == 'a' {
		r = strings.ToLower(r)
	}
	b.WriteString(r)
}

// writeElapsed writes an elapsed-time code ([h], [mm], [ss]) in at least
// as many digits as the code has letters.
func writeElapsed(b *strings.Builder, c string, p dateParts) {
	switch c[1] {
	case 'h':
		n := p.days*24 + int64(p.h)
		b.WriteString(pad64(n, len(c)-2))
	case 'm':
		n := (p.days*24+int64(p.h))*60 + int64(p.mi)
		b.WriteString(pad64(n, len(c)-2))
	case 's':
		n := ((p.days*24+int64(p.h))*60+int64(p.mi))*60 + int64(p.sec)
		b.WriteString(pad64(n, len(c)-2))
	}
}

// writeMonth writes month mo as m, mm, mmm (abbreviated; 1月 in a Japanese
// section), mmmmm (initial) or mmmm (full name).
func (s *section) writeMonth(b *strings.Builder, c string, mo int, num func(int)) {
	switch len(c) {
	case 1, 2:
		num(mo)
	case 3:
		if s.ja {
			b.WriteString(strconv.Itoa(mo) + "月")
		} else {
			b.WriteString(monthAbbr[mo-1])
		}
	case 5:
		b.WriteString(monthFull[mo-1][:1])
	default:
		if s.ja {
			b.WriteString(strconv.Itoa(mo) + "月")
		} else {
			b.WriteString(monthFull[mo-1])
		}
	}
}

// writeDay writes the day as d or dd, or its weekday as ddd (abbreviated)
// or dddd (full name; 月/月曜日 in a Japanese section).
func (s *section) writeDay(b *strings.Builder, c string, p dateParts, num func(int)) {
	switch len(c) {
	case 1, 2:
		num(p.d)
	case 3:
		if s.ja {
			b.WriteString(dayJa[p.wd])
		} else {
			b.WriteString(dayAbbr[p.wd])
		}
	default:
		if s.ja {
			b.WriteString(dayJa[p.wd] + "曜日")
		} else {
			b.WriteString(dayFull[p.wd])
		}
	}
}

// writeEra writes the Japanese era as g (initial), gg (first character)
// or ggg (full name).
func writeEra(b *strings.Builder, c string, p dateParts) {
	e := era(p.y, p.mo, p.d)
	switch len(c) {
	case 1:
		b.WriteString(eraInitial[e])
	case 2:
		b.WriteString(eraName[e][:3])
	default:
		b.WriteString(eraName[e])
	}
}

// pad returns n in decimal, padded with leading zeros to w digits.
func pad(n, w int) string { return pad64(int64(n), w) }

func pad64(n int64, w int) string {
	s := strconv.FormatInt(n, 10)
	if len(s) < w {
		s = strings.Repeat("0", w-len(s)) + s
	}
	return s
}

// DBNum rewrites the ASCII digit runs of a rendered value for
// [DBNum1] (一千二百三十四), [DBNum2] (壱阡弐百参拾四) and [DBNum3]
// (full-width digits). Digits after a decimal point are converted one by
// one. This approximates Excel, which has further special cases.
func DBNum(s string, kind int) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		run := s[i:j]
		afterPoint := i > 0 && s[i-1] == '.'
		switch {
		case kind >= 3:
			for _, c := range run {
				b.WriteRune('０' + c - '0')
			}
		case afterPoint || len(run) > 16:
			for _, c := range run {
				b.WriteString(kanjiDigits[kind-1][c-'0'])
			}
		default:
			b.WriteString(kanjiNumber(run, kind-1))
		}
		i = j
	}
	return b.String()
}

// kanjiNumber writes a digit string positionally (2024 → 二千二十四).
func kanjiNumber(run string, style int) string {
	run = strings.TrimLeft(run, "0")
	if run == "" {
		return kanjiDigits[style][0]
	}
	var b strings.Builder
	n := len(run)
	groupHas := false
	for i := 0; i < n; i++ {
		pos := n - 1 - i
		d := run[i] - '0'
		unit := pos % 4
		if d != 0 {
			groupHas = true
			if d != 1 || unit == 0 || style == 1 {
				b.WriteString(kanjiDigits[style][d])
			}
			b.WriteString(kanjiUnits[style][unit])
		}
		if unit == 0 {
			if groupHas {
				b.WriteString(kanjiBig[style][pos/4])
			}
			groupHas = false
		}
	}
	return b.String()
}
