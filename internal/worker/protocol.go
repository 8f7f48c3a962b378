package worker

import "github.com/fumibako/fumibako/internal/workspace"

// Request asks a worker to extract one file.
type Request struct {
	ID   int64  `json:"id"`
	Path string `json:"path"` // absolute path of the source (read-only)
	Name string `json:"name"` // source file name (chooses the reader)
	// Stage is the folder to write the place TSVs into: new, or a
	// recycled per-file folder whose files are written over
	// (content.WriteStage).
	Stage string `json:"stage"`
	// ModTime (Unix nanoseconds) and Size are the crawled time and size of
	// the source, written beside the TSVs as the staged folder's .source
	// (content.WriteSource) when ModTime is set: the worker fsyncs it with
	// the TSVs, so the coordinator's swap needs no write of its own.
	ModTime int64 `json:"mtime,omitempty"`
	Size    int64 `json:"size,omitempty"`
}

// Response is the worker's answer to one Request.
type Response struct {
	ID        int64    `json:"id"`
	OK        bool     `json:"ok"`
	TSVCount  int      `json:"tsvCount"`
	Msg       string   `json:"msg,omitempty"`       // per-file message (Japanese) when !OK
	Detail    string   `json:"detail,omitempty"`    // English cause chain, verbose output only
	Postponed bool     `json:"postponed,omitempty"` // stays 未取り込み with Msg (seed: Postponed)
	Log       []string `json:"log,omitempty"`       // indented lines for indexing_log.txt
	NoText    bool     `json:"noText,omitempty"`    // a PDF without a text layer (extract.Result.NoText)
	// Unavailable says that the reader's engine could not be prepared
	// (extract.Unavailable): Msg is the run's message, not the file's
	// failure; the file stays 未取り込み with its current row.
	Unavailable bool `json:"unavailable,omitempty"`

	// Fault, when set, says that the worker could not write the workspace
	// (its scratch or the staged place TSVs): the disk is full, read-only,
	// failing or not writable. It is the run's fault, not the file's: the
	// coordinator stops the run and the file stays 未取り込み. FaultPath is
	// the file or folder that could not be written; Detail the cause.
	Fault     workspace.FaultKind `json:"fault,omitempty"`
	FaultPath string              `json:"faultPath,omitempty"`
}

// Command is the hidden subcommand that turns fumibako into a worker.
const Command = "__worker"
