// Package ocrcache is the OCR page cache (issue 29): what a page image
// recognized once reads, kept so that the page is never recognized again,
// and which source files use which pages, so that the cache stays small.
// The coordinator (package indexer) writes it, workers only read it.
//
// # Page entries (work/ocr/pages)
//
// One file per page image recognized, content-addressed by the page's key
// (a hash of the image, ocr.Key; workspace.ValidOCRKey):
//
//	work/ocr/pages/<first two characters of the key>/<key>.txt
//
// Format: UTF-8 without BOM, one recognized line per line, each ended by
// LF; a CR or LF inside a line is written as U+2028 (as in place TSVs). An
// empty file is a page with no text. The coordinator writes an entry
// (Write, through workspace.WriteFileAtomic) when a worker hands the page
// over, before it reads that file's result; workers read entries with
// Read.
//
// # Key lists (work/ocr/files)
//
// Each source file that used OCR has a key list, work/ocr/files/<name>.tsv,
// where <name> is the first 32 hex digits of the SHA-256 of the file's
// FoldKey (so a rename or a change of case finds the same list only for
// the same path). Format: UTF-8 with a BOM, CRLF-ended lines
// (workspace.EncodeTSV); the first line is the file's relative path (as in
// the ingest list), each further line one page key:
//
//	営業\スキャン\2019見積.pdf
//	3fa9c1…
//	77b02e…
//
// The coordinator rewrites a file's list when its result is applied: a 済
// file lists the keys its worker used, cached or recognized; a file that
// failed or was stopped adds the pages it handed over, so its retry finds
// them; a 済 file that used none has its list removed.
//
// # Clean-up
//
// After a run whose ingest list changed, the key lists of paths no longer
// in the list are removed (DropGone). At most once per SweepEvery
// (work/ocr/swept's time), the cache is walked too (Sweep): an entry no
// list names is removed once it is older than UnusedGrace (pages of a file
// killed mid-scan wait that long for its next try); then, while the cache
// is over Cap, the oldest entries go, used or not (a page evicted costs its
// OCR again, never its text). The walk costs about 0.5 s per 20,000
// entries (measured), too much for every watch run; between walks the
// cache may pass the cap by what a day of OCR writes (about 2 KB a page).
package ocrcache
