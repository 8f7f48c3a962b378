package indexer

// Level colours a log line on a terminal (reference/indexing.md §14); the
// log file has no colours.
type Level int

// Levels of log lines.
const (
	Info  Level = iota
	Warn        // yellow: warnings, notices, stop
	Error       // red: per-file failures, fatal errors
	Good        // green: completed, nothing to do
)

// Phase names (reference/indexing.md §4).
const (
	PhaseCrawl  = "クロール"
	PhaseIngest = "取り込み"
	PhaseFinish = "仕上げ"
)

// Progress is a snapshot of the run, sent with every event.
type Progress struct {
	Phase     string
	Total     int    // files to ingest in this run
	Done      int    // processed: successes + failures
	Failed    int    // failures (postponed files included)
	Current   string // the relative path just dispatched or finished
	Remaining int
	// OCRDone of OCRTotal pages of the file being read by OCR (issue 29;
	// 0 of 0 when none is).
	OCRDone, OCRTotal int
	// Preparing is the note of a one-time preparation a file being read
	// waits for (`PDF を読む準備をしています（初回だけ）`, the PDF engine's
	// compile; issue 33), "" when none is going on.
	Preparing string
}

// Event is one thing that happened: a log line, a progress change, or the
// end of one file.
type Event struct {
	Line     string // a log line ("" for a pure progress update)
	Level    Level
	Progress Progress
	// File is the relative path a per-file line or outcome is about; ""
	// for lines about the run as a whole. A terminal shows the lines of a
	// file only when one of them is a warning or failure.
	File string
	// Outcome is set, with File and Reason, on the event that closes a
	// file (after its lines); "" on every other event.
	Outcome Outcome
	Reason  string // the ingest list's エラー text of a failed or postponed file
}

// Outcome is how one file of a run ended.
type Outcome string

// Outcomes of a file.
const (
	OutcomeDone      Outcome = "done"      // 済
	OutcomeFailed    Outcome = "failed"    // 失敗
	OutcomePostponed Outcome = "postponed" // 未取り込み with a reason, retried next run
	OutcomeVanished  Outcome = "vanished"  // the source went away before its turn
	OutcomeStopped   Outcome = "stopped"   // abandoned by a stop or a workspace fault, stays 未取り込み
	// OutcomeRemoved: the file is gone from its folder and its row and
	// index entries are dropped (a deletion; issue 32: the watcher says
	// 削除を反映しました for it). Sent when the run takes its plan.
	OutcomeRemoved Outcome = "removed"
)

// Observer receives events; it is called from the coordinator goroutine
// and must not block for long.
type Observer func(Event)
