// Package pdfobj is a small reader of PDF objects (PDF 32000-1:2008
// chapter 7), made for one use: the font dictionaries of a page's
// resources (fonts.go), which the PDF engine (PDFium, package
// extract/pdf) does not expose and which tell how a font without a
// ToUnicode map encodes its text (issue 33). It reads nothing else: no
// content streams, no text.
//
// What it reads:
//
//   - The header `%PDF-` anywhere in the first 1,024 bytes; offsets are
//     taken as written, else from the header (a file after a mail header).
//   - The cross-reference section at `startxref` (a table, `xref` lines of
//     `nnnnnnnnnn ggggg n`, or a stream /Type /XRef with /W, /Index and
//     PNG predictors), following /Prev (and a hybrid file's /XRefStm);
//     entries of later sections win.
//   - Objects (7.3): null, booleans, numbers, strings (literal and hex,
//     kept as bytes), names (#xx escapes), arrays, dictionaries, indirect
//     references, streams (the dictionary and where the data starts).
//   - Object streams (7.5.7, /Type /ObjStm) and stream data through
//     /FlateDecode only (what object and xref streams use), with PNG
//     predictors.
//   - The page tree (7.7.3), /Resources inherited from the ancestors.
//
// When the cross-reference section cannot be read (cut, wrong offsets, a
// damaged table), the objects are found by scanning the file for
// `N G obj`, the last of a number winning, as readers repair such files.
// A file encrypted by the standard security handler with an empty user
// password (it opens without asking: printing or copying restricted) is
// decrypted, RC4 and AES-128/256, revisions 2 to 6 (crypt.go); one that
// needs a password keeps its streams unread (the engine refuses it too).
//
// Everything is bounded, because the file comes from outside: the objects
// a file may hold (maxObjects), the nesting of arrays and dictionaries
// (maxDepth), the references followed in a chain (maxRefChain), the bytes
// one object may span (maxObjectBytes), the bytes a stream may inflate to
// (maxStreamBytes), the pages (maxPages), and the objects parsed in all
// (File.budget). A malformed object is an error or a null, never a panic;
// callers still recover at their boundary (extract/pdf does).
//
// Why a reader of its own: pdfcpu, the PDF object library the module proxy
// serves here (its newest version there flagged as no approved release),
// loads every object of a file into memory when it opens it (pdfcpu.Read
// dereferences the whole cross-reference table, decoding every object
// stream), a cost every ordinary PDF would pay; this reader parses only
// the objects asked for (the page tree and the fonts), object-stream
// members included, from the file read in 64 KB blocks (bench/pdffonts.md).
package pdfobj
