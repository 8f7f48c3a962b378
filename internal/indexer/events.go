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
}

// Event is one thing that happened: a log line, or a progress change.
type Event struct {
	Line     string // a log line ("" for a pure progress update)
	Level    Level
	Progress Progress
}

// Observer receives events; it is called from the coordinator goroutine
// and must not block for long.
type Observer func(Event)
