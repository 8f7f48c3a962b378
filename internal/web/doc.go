// Package web is fumibako's browser UI (`fumibako serve`): an HTTP server
// on 127.0.0.1 with the embedded page, a JSON API for search and index
// management, and the one indexing run it may drive at a time. It owns no
// file format: it reads settings.json (through workspace), the ingest list
// (ingestlist) for the index list and the failure list, the expected
// failures (ingestlist.ExpectedName, which it also writes), the body indexes
// (search, bodyindex) for results and previews, indexing_log.txt for the
// log link, and the source files under the registered roots for downloads;
// it writes settings.json (folder edits) and, through indexer.Run and
// indexer.RenameIndex, everything an indexing run writes. The screens and
// their texts follow reference/gui.md and reference/search.md §6–§9.
//
// # Safety
//
// A web page in the same browser, or a DNS-rebinding page, must not be
// able to read results or change anything:
//
//   - the server listens on 127.0.0.1 by default (--addr to change);
//   - every request's Host must name the server (its port, and localhost
//     or an IP literal; only loopback ones on a loopback listener), and an
//     Origin header, when sent, must be the server's own origin; API
//     requests marked cross-site or same-site by Sec-Fetch-Site are
//     refused;
//   - every state-changing request is a POST with a JSON body and the
//     session token in the X-Fumibako-Token header; the token is random per
//     server start and reaches only the page served from the server itself
//     (a meta tag); other methods on those endpoints get 405;
//   - /api/fresh only stats files under registered roots, by index path
//     (ValidRelPath), and answers nothing but "changed" or "deleted";
//   - files are reached only by index path (`<index>\<path>`, the ingest
//     list's relative path, source.Resolve): the index's source folder must
//     be known (a root, indexSources, source_folder.txt) and, for a
//     received index, confirmed by the user; the path must be in the ingest
//     list, every segment must be a plain name, and the path, resolved with
//     its symbolic links, must lie under the resolved folder;
//   - POST /api/source, which sets the folder an index's files are read
//     from, is answered only for a request from this machine, and a picked
//     folder is searched only for a file the ingest list names;
//   - the server starts a program (xdg-open, open, url.dll's
//     FileProtocolHandler; Notepad or a text editor for scripts) only for a
//     request from this machine, and only on such a checked path or its
//     folder;
//   - the page loads nothing from elsewhere (Content-Security-Policy
//     default-src 'none', script-src 'self'); assets are embedded.
//
// # API
//
//	GET  /                    the page, with the session token
//	GET  /assets/<file>       scripts and styles (plain JavaScript, no build step)
//	GET  /api/state           StateView: folders (received indexes too), counts, the run (indexing.View)
//	GET  /api/events          server-sent events: state (indexing.View), log ([]indexing.LogLine)
//	GET  /api/failures        the failure list, newest first
//	GET  /api/log             indexing_log.txt
//	GET  /api/indexes         index names, when each was last updated, the
//	                          search-target tree's exclusions (settings searchExcludes)
//	                          and the open menu's default mode (openMode)
//	GET  /api/tree?path=…     sub-folders of a search-target tree node (tree.go)
//	GET  /api/search?q=…      NDJSON stream of hits, then a done line (search.go)
//	GET  /api/preview?path=…  the place around a hit (PreviewView)
//	GET  /api/file?path=…     the source file as a download
//	POST /api/folders/add     {path, name}
//	POST /api/folders/rename  {name, newName}
//	POST /api/folders/enable  {name, enabled}
//	POST /api/folders/remove  {name}
//	POST /api/run/start       {}: crawl, then wait for the confirmation
//	POST /api/run/confirm     {proceed, retryFailed}: the answer (indexer.Answer)
//	POST /api/run/stop        {kill}: the stop button (kill skips the grace)
//	POST /api/open            {path, folder}: open the original (this machine only); a
//	                          received index's macro-capable file as a read-only copy; 409
//	                          {dialog: "confirm"} for an unconfirmed received index, 404
//	                          {dialog: "missing"} for a file not found
//	POST /api/source          {index, folder}: confirm or set an index's source folder;
//	                          {path, folder}: look for a hit's file under a picked folder
//	                          (relative folders' order) and store the root it implies
//	POST /api/export          {query, filter, format}: search_results.txt or .csv
//	POST /api/fresh           {files}: which shown files changed or vanished since indexed (fresh.go)
//	POST /api/failures/ignore {path, ignore}: mark a failure as expected (無視する)
//	POST /api/excludes {excludes:[{path, subfolders}]}: save the tree's unchecked
//	     nodes in settings.json, shared by every page (tree.go)
//
// Refusals answer {"error": English, "message": Japanese}; the page shows
// the message under the field or in the status bar (gui.md §9).
//
// # Indexing run
//
// One run at a time: the server's own (package indexing: indexer.Run in a
// goroutine, with worker processes started from Options.WorkerExe, and
// 自動で更新する) or another process's (the workspace lock, shown as
// such). The run's confirmation (indexer.Options.Confirm) waits for the
// page's answer for up to 60 minutes, then declines; a stop while it
// waits declines too. Progress reaches the page as indexing.View
// snapshots about ten times a second.
package web
