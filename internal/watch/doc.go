// Package watch keeps the index fresh (DESIGN.md "Keeping the index
// fresh"): it holds the workspace lock for as long as it runs, watches the
// enabled crawl roots for file-system events (fsnotify: one inotify watch
// per folder on Linux), debounces them, and runs the same crash-safe
// indexing run as `fumibako index` (indexer.Run) over the paths the events
// named (indexer.Options.Paths). Every write-ordering rule of package
// indexer therefore holds for a watch run too: a kill of the watcher is a
// kill of an indexing run, and the next start (a full run) recovers from
// the journal.
//
// A full rescan runs at start and every Options.FullEvery. A root whose
// events cannot be trusted falls back to a rescan every Options.PollEvery,
// with the reason logged and shown (Status.Rescan): a network file system
// on Linux (statfs magic: NFS, SMB/CIFS, FUSE, 9p, …), the per-user watch
// limit reached, an overflowed event queue, a root that disappeared (it
// returns to events when it comes back).
//
// While it runs, the state file work/watch.json (Status) tells other
// processes (fumibako status) that a watcher holds the lock.
package watch
