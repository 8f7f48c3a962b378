// Package worker runs extraction in separate processes and supervises them:
// the protocol between the coordinator and a worker, the worker's serve
// loop, and the supervisor that enforces the per-file deadline, the memory
// cap and stop requests by killing the worker's whole process tree (the
// worker and any converter it started, nothing else): a process group on
// Unix, with the memory cap as an RSS watch on Linux; one Job Object per
// worker on Windows, with kill-on-close (a killed coordinator takes its
// workers with it) and the per-process memory limit (tree.go).
//
// Protocol: the coordinator starts `fumibako __worker` (Command) with
// stdin and stdout as pipes. Each request is one JSON object on one line
// (Request); the worker answers each with one JSON line (Response) after
// writing the file's place TSVs into Request.Stage with content.WriteFolder.
// Up to Depth requests are in the worker's pipe; it extracts one at a
// time and writes the answers of files that follow each other (another
// request waiting) together, at most Depth of them and no later than
// holdFor after the first (sender.sendResponse). A worker exits when
// stdin closes. It also ends by itself, killing the converters it
// started, once its coordinator is gone (issue 36), on every system and
// whatever the Job Object or Pdeathsig do: when the
// coordinator's process ends (--parent: getppid polled on Unix, a wait on
// the process handle on Windows) and when stdin closes while a request is
// outstanding, which the coordinator never does (Serve). Anything the
// worker prints on stderr is kept (the last lines) to explain a crash.
//
// OCR (issue 29): before a request's Response the worker may write
// interim lines for it (Interim: ocrPage for each page it recognized,
// ocrProgress before each page and after the last); the supervisor passes
// them to Config.Interim in order, before the result, and each
// ocrProgress gives the page it starts at least Config.OCRPageTimeout past
// the file's deadline. The worker reads the OCR page cache (package ocrcache)
// but never writes it: the coordinator stores the pages handed over.
//
// A worker never writes workspace state: it reads the source read-only,
// writes only inside its scratch folder and the stage folder it is given,
// and returns results. The coordinator (package indexer) swaps the staged
// folder in and records the row.
package worker
