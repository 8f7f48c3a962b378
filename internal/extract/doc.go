// Package extract turns one source file into places (場所): the sheets,
// pages, slides, notes, shapes, comments, headers and footers of Office files
// and the single 本文 of a text file, each as lines of text
// (reference/extraction.md). It reads only; writing place TSVs is package
// content's job.
//
// Extract chooses the reader from the file extension and the sniffed
// content (package officefile). Every reader obeys the same contract:
//   - it never modifies, locks or writes the source, and writes only inside
//     Options.Scratch;
//   - bad input is an *Error carrying the user-facing Japanese message of
//     reference/extraction.md (the ingest list's エラー text), never a panic;
//   - hostile input is bounded by the limits of Options (ZIP part and total
//     sizes, entry counts, XML depth).
package extract
