// Package streams is the compound-file side of the native Word and
// PowerPoint readers and of embedded objects: it parses a file once with
// the compound-file reader (package officefile/cfb), refuses an encrypted
// one from that parse before any stream is read (package officefile,
// reference/extraction.md §10), and reads whole streams with their sizes
// checked before any allocation; Damage names what is broken in a file the
// reader refused (for the converter's precheck).
package streams
