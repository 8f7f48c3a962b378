package main

import (
	"github.com/fumibako/fumibako/internal/indexer"
)

// The JSON lines of `fumibako index --json`, one object per event, each
// with "event" first (README "--json" lists the fields; they only grow).
type (
	indexStartJSON struct {
		Event string `json:"event"` // "start"
		Total int    `json:"total"` // files to ingest
	}
	indexFileJSON struct {
		Event   string `json:"event"`   // "file"
		Path    string `json:"path"`    // <index name>\<path under the folder>
		Outcome string `json:"outcome"` // done, failed, postponed, vanished, stopped, removed
		Reason  string `json:"reason,omitempty"`
		Done    int    `json:"done"` // files finished so far (ingested or failed)
		Failed  int    `json:"failed"`
		Total   int    `json:"total"`
	}
	indexLogJSON struct {
		Event string `json:"event"` // "log": a warning or error about the run
		Level string `json:"level"` // warn, error
		Text  string `json:"text"`
	}
	indexEndJSON struct {
		Event       string `json:"event"` // "end"
		Succeeded   int    `json:"succeeded"`
		Failed      int    `json:"failed"`
		Postponed   int    `json:"postponed"`
		Remaining   int    `json:"remaining"` // left 未取り込み (stopped, lost folder)
		Dropped     int    `json:"dropped"`   // vanished before their turn
		CloudOnly   int    `json:"cloudOnly"`
		Stopped     bool   `json:"stopped"`
		Cancelled   bool   `json:"cancelled"`
		NothingToDo bool   `json:"nothingToDo"`
		Error       string `json:"error,omitempty"` // the fatal error's text
		ExitCode    int    `json:"exitCode"`
		IngestList  string `json:"ingestList"` // full path of ingest_status.tsv
		// OCR (issue 29): pages read by OCR in the run; pages and files
		// waiting for an OCR engine after it.
		OCRPages        int `json:"ocrPages,omitempty"`
		OCRWaiting      int `json:"ocrWaiting,omitempty"`
		OCRWaitingFiles int `json:"ocrWaitingFiles,omitempty"`
	}
)

var jsonLevels = map[indexer.Level]string{indexer.Warn: "warn", indexer.Error: "error"}

func (u *progressUI) observeJSON(ev indexer.Event) {
	if !u.started && ev.Progress.Phase == indexer.PhaseIngest {
		u.started = true
		u.json.write(indexStartJSON{Event: "start", Total: ev.Progress.Total})
	}
	switch {
	case ev.Outcome != "":
		u.json.write(indexFileJSON{Event: "file", Path: ev.File, Outcome: string(ev.Outcome), Reason: ev.Reason,
			Done: ev.Progress.Done, Failed: ev.Progress.Failed, Total: ev.Progress.Total})
	case ev.Line == "" || ev.File != "":
	case u.skipNext:
		u.skipNext = false
	case ev.Line == fatalMark:
		u.skipNext = true
	case jsonLevels[ev.Level] != "":
		u.json.write(indexLogJSON{Event: "log", Level: jsonLevels[ev.Level], Text: ev.Line})
	}
}

// end writes the end event of --json.
func (u *progressUI) end(sum *indexer.Summary, errText string, code int, listPath string) {
	if u.mode != modeJSON {
		return
	}
	v := indexEndJSON{Event: "end", Error: errText, ExitCode: code, IngestList: listPath}
	if sum != nil {
		v.Succeeded, v.Failed, v.Postponed, v.Remaining = sum.Succeeded, sum.Failed, sum.Postponed, sum.Remaining
		v.Dropped, v.CloudOnly, v.Stopped, v.Cancelled, v.NothingToDo = sum.Dropped, sum.CloudOnly, sum.Stopped, sum.Cancelled, sum.NothingToDo
		v.OCRPages, v.OCRWaiting, v.OCRWaitingFiles = sum.OCRPages, sum.OCRWaitingPages, sum.OCRWaitingFiles
	}
	u.json.write(v)
}
