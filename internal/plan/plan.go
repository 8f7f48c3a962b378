// Package plan decides, per crawl root, which files an indexing run
// ingests: reference/indexing.md §6 (getIngestDecision, createTargetList),
// the seed's rules for cloud-only files, --retry-failed, deletions, and the
// journal's interrupted jobs (moved last, or failed at the interrupt limit).
//
// It computes only; it writes nothing. The indexer applies the plan.
package plan

import (
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/crawl"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Reason says why a file is a target (or not), as counted in the log.
type Reason int

// Outcomes of the decision, in the order of reference/indexing.md §6.
const (
	Failed   Reason = iota // same file, failed before: skipped unless RetryFailed (前回失敗)
	Outdated               // done, index complete, older extract version (更新あり)
	Done                   // done, complete, current version (取り込み済み)
	Lost                   // done, index missing or broken (インデックスが無い・壊れている)
	New                    // no previous row (新規)
	Pending                // previous row 未取り込み (前回未完了)
	Updated                // time or size changed (更新あり)
)

// Target is one file to ingest.
type Target struct {
	File   crawl.File
	Reason Reason
	Retry  bool // a failed file taken again by RetryFailed
	// Count is the number of consecutive starts carried from the journal
	// (0 for a file that was not interrupted); the next 始 writes Count+1.
	Count int
	// Row is the position of the target's row in Root.Rows, so that the
	// indexer finds it without a map of every row by path.
	Row int
	// Prev is the file's row in the previous list, nil when it had none
	// (a pointer: most targets of a build have none): a postponed file
	// keeps its TSV数, date and version (seed: Postponed), and the indexer
	// need not keep the whole previous list for the few targets.
	Prev *ingestlist.Row
}

// Counts are the per-root numbers of the log line.
type Counts struct {
	Total, Done, New, Updated, Pending, Failed, Lost, CloudOnly int
}

// Input is what the decision for one root needs.
type Input struct {
	Root  workspace.Root
	Crawl *crawl.Result
	Prev  *ingestlist.List
	// Complete reports whether a 済 row's index is complete
	// (testIndexComplete); nil means every index counts as complete.
	Complete    func(row ingestlist.Row) bool
	RetryFailed bool
	// Version returns the current extract version of a file name.
	Version func(name string) int
	// Scope, when set, says the crawl covered only these relative paths
	// (`<index>\<path>`, a file or a folder's subtree; crawl.Options.Only):
	// rows outside them are kept as they are, and only rows inside them
	// that the crawl did not see are removed (a watch run over the paths
	// that file-system events named).
	Scope []string
	// Again, when set, says that an unchanged 済 file is read again all
	// the same (counted as 更新あり): a file that waits for OCR once an
	// OCR engine is found (issue 29).
	Again func(rel string) bool
}

// Root is the plan of one crawl root.
type Root struct {
	// Rows are this root's rows for the rewritten ingest list: skipped
	// files keep their row, targets get a fresh 未取り込み row, rows of
	// unseen files are kept when the crawl was incomplete.
	Rows    []ingestlist.Row
	Targets []Target
	// Removed are rows of files that are gone (the crawl was complete):
	// they must be written to pending_remove.tsv before their rows go.
	Removed []ingestlist.Row
	// CloudDropped are 未取り込み rows of cloud-only files: no row is
	// written and their half-ingested content is removed (seed).
	CloudDropped []ingestlist.Row
	// FailedSkipped counts unchanged failed files left alone;
	// FailedRetried those taken again because of RetryFailed.
	FailedSkipped, FailedRetried int
	Counts                       Counts
}

// Decide applies getIngestDecision to every crawled file of one root.
func Decide(in Input) *Root {
	p := &Root{}
	// seen marks the previous rows the crawl found, by position: a map
	// by path would hold a folded copy of every path (issue 21).
	seen := make([]bool, len(in.Prev.Rows))
	for _, f := range in.Crawl.Files {
		p.Counts.Total++
		var prev ingestlist.Row
		i, hasPrev := in.Prev.Find(f.RelPath)
		if hasPrev {
			prev, seen[i] = in.Prev.Rows[i], true
		}
		if f.CloudOnly {
			p.Counts.CloudOnly++
			switch {
			case !hasPrev:
			case prev.State == ingestlist.Pending:
				p.CloudDropped = append(p.CloudDropped, prev)
			default:
				p.Rows = append(p.Rows, prev)
			}
			continue
		}
		updated := ingestlist.FormatFileTime(f.ModTime)
		same := hasPrev && prev.SameUpdated(updated) && prev.Size == f.Size && prev.State != ingestlist.Pending
		if same {
			// A list re-saved by Excel kept only the minutes: the row
			// carries the crawled time again.
			prev.Updated, prev.UpdatedMinutes = updated, false
		}
		reason := New
		switch {
		case same && prev.State == ingestlist.Failed:
			reason = Failed
		case same && prev.State == ingestlist.Done:
			switch {
			case in.Complete != nil && !in.Complete(prev):
				reason = Lost
			case prev.ExtractVersion() < in.Version(f.RelPath):
				reason = Outdated
			case in.Again != nil && in.Again(f.RelPath):
				reason = Outdated
			default:
				reason = Done
			}
		case !hasPrev:
			reason = New
		case prev.State == ingestlist.Pending:
			reason = Pending
		default:
			reason = Updated
		}
		switch reason {
		case Failed:
			p.Counts.Failed++
			if !in.RetryFailed {
				p.FailedSkipped++
				p.Rows = append(p.Rows, prev)
				continue
			}
			p.FailedRetried++
		case Done:
			p.Counts.Done++
			p.Rows = append(p.Rows, prev)
			continue
		case Outdated, Updated:
			p.Counts.Updated++
		case Lost:
			p.Counts.Lost++
		case New:
			p.Counts.New++
		case Pending:
			p.Counts.Pending++
		}
		t := Target{File: f, Reason: reason, Retry: reason == Failed, Row: len(p.Rows)}
		if hasPrev {
			pv := prev // only targets with a previous row pay for a copy
			t.Prev = &pv
		}
		p.Targets = append(p.Targets, t)
		p.Rows = append(p.Rows, FreshRow(f))
	}
	// Rows of this root that the crawl did not see.
	prefix := workspace.FoldKey(in.Root.Name + `\`)
	scope := newScopeSet(in.Scope)
	for i, r := range in.Prev.Rows {
		if seen[i] {
			continue
		}
		if k := r.Key(); len(k) <= len(prefix) || k[:len(prefix)] != prefix {
			continue
		}
		if in.Crawl.Incomplete || !scope.has(r.RelPath) {
			p.Rows = append(p.Rows, r)
		} else {
			p.Removed = append(p.Removed, r)
		}
	}
	return p
}

// InScope reports whether a relative path lies in a scope (Input.Scope):
// it is one of the scope's paths or under one, compared case-insensitively.
// Every path is in an empty scope.
func InScope(scope []string, rel string) bool { return newScopeSet(scope).has(rel) }

// scopeSet holds a scope's paths by fold key; has looks up a path and its
// parent folders, so a check costs the path's depth, not the scope's size.
type scopeSet map[string]bool

func newScopeSet(scope []string) scopeSet {
	if len(scope) == 0 {
		return nil
	}
	s := scopeSet{}
	for _, p := range scope {
		s[workspace.FoldKey(strings.TrimRight(p, `\`))] = true
	}
	return s
}

func (s scopeSet) has(rel string) bool {
	if s == nil {
		return true
	}
	k := workspace.FoldKey(rel)
	for {
		if s[k] {
			return true
		}
		i := strings.LastIndexByte(k, '\\')
		if i < 0 {
			return false
		}
		k = k[:i]
	}
}

// FreshRow is the 未取り込み row of a target as the crawl saw it.
func FreshRow(f crawl.File) ingestlist.Row {
	return ingestlist.Row{
		RelPath: f.RelPath,
		Updated: ingestlist.FormatFileTime(f.ModTime),
		Size:    f.Size,
		State:   ingestlist.Pending,
	}
}

// Interrupted is the result of applying the journal's jobs to redo.
type Interrupted struct {
	MovedLast []string         // relative paths moved to the end
	Failed    []ingestlist.Row // rows turned 失敗 at the interrupt limit
}

// ApplyRedo moves targets that the journal says were interrupted to the
// end of the order, keeping their counts, and fails those whose count has
// reached journal.InterruptLimit (seed: やり直す仕事). rows is updated in
// place: a failed target's row becomes 失敗 with the seed's message. Jobs
// that are not targets are ignored.
func ApplyRedo(targets []Target, rows []ingestlist.Row, redo []journal.Job, now time.Time) ([]Target, Interrupted) {
	var out Interrupted
	counts := map[string]int{}
	for _, j := range redo {
		counts[workspace.FoldKey(j.RelPath)] = j.Count
	}
	if len(counts) == 0 {
		return targets, out
	}
	rowAt := map[string]int{}
	for i, r := range rows {
		rowAt[r.Key()] = i
	}
	var first, last []Target
	for _, t := range targets {
		k := workspace.FoldKey(t.File.RelPath)
		c, interrupted := counts[k]
		if !interrupted {
			first = append(first, t)
			continue
		}
		t.Count = c
		if c >= journal.InterruptLimit {
			if i, ok := rowAt[k]; ok {
				rows[i].State = ingestlist.Failed
				rows[i].Error = journal.MsgInterrupted(c)
				rows[i].IngestedAt = ingestlist.FormatFileTime(now)
				rows[i].HasTSVCount = false
				rows[i].Version = 0
				out.Failed = append(out.Failed, rows[i])
			}
			continue
		}
		out.MovedLast = append(out.MovedLast, t.File.RelPath)
		last = append(last, t)
	}
	return append(first, last...), out
}
