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
	// Recycled says that Stage is a recycled per-file folder (it exists
	// and holds another file's TSVs); otherwise it does not exist yet and
	// the worker creates it without listing it (issue 35).
	Recycled bool `json:"recycled,omitempty"`
	// ModTime (Unix nanoseconds) and Size are the crawled time and size of
	// the source, written beside the TSVs as the staged folder's .source
	// (content.WriteSource) when ModTime is set: the worker fsyncs it with
	// the TSVs, so the coordinator's swap needs no write of its own.
	ModTime int64 `json:"mtime,omitempty"`
	Size    int64 `json:"size,omitempty"`
	// Inline lets the worker return the places in its Response instead
	// of writing Stage (issue 35: the coordinator appends them to its
	// batch file, content/batch.go), when their place TSVs would hold at
	// most content.InlineMax bytes and every line is valid UTF-8 (JSON
	// carries nothing else unchanged); otherwise it writes Stage as
	// without it.
	Inline bool `json:"inline,omitempty"`
	// HiddenSheets: read hidden sheets too (the root's hiddenSheets,
	// extract.Options.HiddenSheets; issue 31).
	HiddenSheets bool `json:"hiddenSheets,omitempty"`
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
	// Vanished says that the file could not be read because it is gone
	// (moved, deleted or renamed since the crawl): the coordinator drops
	// it as the crawl would have, it does not fail it. The coordinator
	// hands a file over without checking it is still there (issue 35:
	// that stat was a percent of a small-file build's CPU).
	Vanished bool `json:"vanished,omitempty"`

	// Fault, when set, says that the worker could not write the workspace
	// (its scratch or the staged place TSVs): the disk is full, read-only,
	// failing or not writable. It is the run's fault, not the file's: the
	// coordinator stops the run and the file stays 未取り込み. FaultPath is
	// the file or folder that could not be written; Detail the cause.
	Fault     workspace.FaultKind `json:"fault,omitempty"`
	FaultPath string              `json:"faultPath,omitempty"`

	// OCR (issue 29): OCRPages counts the pages read by OCR (cached or
	// recognized), OCRWaiting those that need OCR but were not read for
	// want of an engine (extract.Result), and OCRKeys lists the page keys
	// the file used, cached or recognized, so that the coordinator keeps
	// their cache entries (package ocrcache).
	OCRPages   int      `json:"ocrPages,omitempty"`
	OCRWaiting int      `json:"ocrWaiting,omitempty"`
	OCRKeys    []string `json:"ocrKeys,omitempty"`

	// Inline says that the places came with the Response (Request.Inline),
	// as content.NormalizePlaces gives them: nothing was written to
	// Stage. Places holds them in content.AppendPlaces' encoding (read
	// with content.ParsePlaces; a file with no text has a count of 0).
	// They travel as a binary frame before the Response's line, not in
	// its JSON, which cost more CPU to write and read than the rest of a
	// small file's path (issue 35):
	//
	//	#<n>\n<n bytes: content.AppendPlaces>{"id":7,"ok":true,…,"inlined":true}\n
	//
	// The frame belongs to the Response that follows it.
	Inline bool   `json:"inlined,omitempty"`
	Places []byte `json:"-"`
}

// Interim is a message a worker sends about the request it is working on,
// before that request's Response, on the same pipe (issue 29). Exactly
// one of its fields besides ID is set:
//
//	{"id":7,"ocrPage":{"key":"3fa9…","lines":["見積書","株式会社…"]}}
//	{"id":7,"ocrProgress":{"done":12,"total":300}}
//	{"id":7,"preparing":"PDF を読む準備をしています（初回だけ）"}
//	{"id":7,"preparing":""}
//
// ocrPage hands over a page just recognized: the coordinator stores it in
// the OCR cache before it reads the file's Response, so a kill or a
// deadline loses at most the page in flight. ocrProgress says done of
// total pages that need OCR; it is sent before each page and after the
// last, and each one gives the page about to start at least the per-page
// allowance (Config.OCRPageTimeout, pipeline.go). preparing (issue 33)
// says the file waits for a one-time preparation of its reader's engine
// (extract.Options.Preparing: the PDF engine's compiled code), with the
// note the progress line shows, and "" when it is over: the file's
// deadline is held off while it lasts (PrepareTimeout) and starts again
// when it ends.
type Interim struct {
	ID          int64        `json:"id"`
	OCRPage     *OCRPage     `json:"ocrPage,omitempty"`
	OCRProgress *OCRProgress `json:"ocrProgress,omitempty"`
	Preparing   *string      `json:"preparing,omitempty"`
}

// OCRPage is one page recognized by OCR: its key (a content hash of the
// page image) and its lines.
type OCRPage struct {
	Key   string   `json:"key"`
	Lines []string `json:"lines"`
}

// OCRProgress is done of total pages of a file that need OCR.
type OCRProgress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// wireLine is one line a worker writes: a Response, or an Interim when
// one of the OCR fields or preparing is set (decoded once, answer in pipeline.go).
type wireLine struct {
	Response
	OCRPage     *OCRPage     `json:"ocrPage,omitempty"`
	OCRProgress *OCRProgress `json:"ocrProgress,omitempty"`
	Preparing   *string      `json:"preparing,omitempty"`
}

// Command is the hidden subcommand that turns fumibako into a worker.
const Command = "__worker"
