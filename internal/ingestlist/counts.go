package ingestlist

import (
	"sort"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Counts are one index's numbers in the ingest list, as `fumibako status`
// and the web UI's index list show them (computed here once, issue 13).
type Counts struct {
	Files   int    // rows of the index
	Done    int    // 済
	Failed  int    // 失敗, and 未取り込み with a reason (postponed)
	Pending int    // 未取り込み without a reason (not yet ingested, interrupted)
	Last    string // the newest 取り込み日時 (yyyy/MM/dd HH:mm:ss), "" when none
}

// CountByIndex counts the rows per index, keyed by workspace.FoldKey of
// the index name.
func (l *List) CountByIndex() map[string]*Counts {
	out := map[string]*Counts{}
	for _, r := range l.Rows {
		k := workspace.FoldKey(r.IndexName())
		c := out[k]
		if c == nil {
			c = &Counts{}
			out[k] = c
		}
		c.Files++
		switch {
		case r.Failed():
			c.Failed++
		case r.State == Done:
			c.Done++
		default:
			c.Pending++
		}
		if r.IngestedAt > c.Last {
			c.Last = r.IngestedAt
		}
	}
	return out
}

// Failures returns the rows that failed (Row.Failed), newest 取り込み日時
// first; rows of the same time keep the list's order.
func (l *List) Failures() []Row {
	var out []Row
	for _, r := range l.Rows {
		if r.Failed() {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].IngestedAt > out[j].IngestedAt })
	return out
}
