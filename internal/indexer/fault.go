package indexer

import "github.com/fumibako/fumibako/internal/workspace"

// Workspace faults (issue 15, DESIGN.md "Bad input and faults"): a write
// to the workspace that fails because the disk is full, read-only or
// failing, or a file is not writable or held open (workspace.WriteFault),
// is the run's fault, never the file's. Wherever it happens (worker
// scratch, place TSVs, the swap, the ingest list, the journal, a publish,
// a summary) the run stops dispatching, the files in flight are abandoned
// as on a stop (their current 未取り込み row is appended, so the journal
// does not count them as interrupted), what can be published is published,
// and Run returns the *workspace.FaultError (exit 1). No row is written as
// 失敗 because of it. The next run, once the workspace is writable again,
// continues as after a stop: rows appended so far are read back (later row
// wins), folders without 出 are published at its start.

// noteFault records err as the run's workspace fault when it is one (the
// first one is kept and logged) and reports whether it was.
func (r *run) noteFault(err error) bool {
	f := workspace.WriteFault(err)
	if f == nil {
		return false
	}
	if r.fault == nil {
		r.fault = f
		r.logf(Error, msgFaultStopping)
	}
	return true
}

// check returns err, or the run's fault when err is a workspace fault.
func (r *run) check(err error) error {
	if err != nil && r.noteFault(err) {
		return r.fault
	}
	return err
}

// faultErr is the run's fault as an error (nil when there is none).
func (r *run) faultErr() error {
	if r.fault == nil {
		return nil
	}
	return r.fault
}
