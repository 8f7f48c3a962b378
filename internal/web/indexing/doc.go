// Package indexing is the indexing run the web server drives (`fumibako
// serve`): at most one run at a time (Runner, indexer.Run in a goroutine
// with worker processes from the server's indexer.Launch), its
// confirmation waiting for the page's answer for up to 60 minutes
// (reference/gui.md §3.2; a stop while it waits declines), the stop and
// kill of the stop button, and 自動で更新する (Auto: package watch in the
// background while settings.json's autoUpdate is on, halted for a run by
// hand and resumed after it).
//
// It keeps what the page shows of them: View, a snapshot of the progress,
// the pending plan, the end text (reference/gui.md §3.3–§3.5) and the
// kept log lines, with a channel closed at the next change; the server
// adds whether another process holds the workspace lock and streams the
// snapshots (package web, /api/state and /api/events). It writes nothing
// itself: everything a run writes, indexer.Run writes.
package indexing
