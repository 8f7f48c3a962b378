package search

import (
	"fmt"
	"strings"
	"time"
)

// DateRange is the modification-date filter (CLI --since/--until, the web
// UI's 更新日時 range; issue 18, issue 31): a file is kept when the time
// it had when indexed (Hit.Modified) lies in [From, To). From is the local
// midnight starting the first day, To the midnight after the last day, as
// the web UI computes them from its date boxes; a zero bound is open. A
// file whose time is unknown is kept only when both bounds are open.
type DateRange struct {
	From, To time.Time
}

// IsZero reports whether the range filters nothing.
func (r DateRange) IsZero() bool { return r.From.IsZero() && r.To.IsZero() }

// Contains reports whether a file modified at t passes the filter.
func (r DateRange) Contains(t time.Time) bool {
	if r.IsZero() {
		return true
	}
	if t.IsZero() {
		return false
	}
	return (r.From.IsZero() || !t.Before(r.From)) && (r.To.IsZero() || t.Before(r.To))
}

// MsgBadDate is a --since/--until value that is no date.
const MsgBadDate = "日付「%s」を読めません（2024-04-01 または 2024/04/01 の形で書いてください）。"

// MsgBadDateRange is a range whose end is before its start.
const MsgBadDateRange = "期間の終わり（%s）が始まり（%s）より前です。"

// dateLayouts are the day forms a date filter accepts: the web's date box
// sends the first; people type the others.
var dateLayouts = []string{"2006-01-02", "2006/01/02", "2006-1-2", "2006/1/2", "20060102"}

// ParseDateRange reads the first and last day of a date filter (either may
// be ""), in local time. An unreadable day or a range that ends before it
// starts is a *QueryError.
func ParseDateRange(since, until string) (DateRange, error) {
	var r DateRange
	day := func(s string) (time.Time, error) {
		s = strings.TrimSpace(s)
		for _, l := range dateLayouts {
			if t, err := time.ParseInLocation(l, s, time.Local); err == nil {
				return t, nil
			}
		}
		return time.Time{}, &QueryError{Msg: fmt.Sprintf(MsgBadDate, s), Word: -1, Pos: -1, Cause: fmt.Errorf("search: bad date %q", s)}
	}
	if strings.TrimSpace(since) != "" {
		t, err := day(since)
		if err != nil {
			return r, err
		}
		r.From = t
	}
	if strings.TrimSpace(until) != "" {
		t, err := day(until)
		if err != nil {
			return r, err
		}
		r.To = t.AddDate(0, 0, 1)
	}
	if !r.From.IsZero() && !r.To.IsZero() && !r.To.After(r.From) {
		return r, &QueryError{Msg: fmt.Sprintf(MsgBadDateRange, strings.TrimSpace(until), strings.TrimSpace(since)), Word: -1, Pos: -1,
			Cause: fmt.Errorf("search: date range ends before it starts")}
	}
	return r, nil
}
