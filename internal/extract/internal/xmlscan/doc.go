// Package xmlscan is the pull parser for the XML parts of Office packages
// that the readers stream (worksheets, shared strings, Word bodies,
// slides, relationships, styles): tokens as views into its buffers, no
// allocation per token, namespaces resolved on request, DTDs refused.
// It sees what encoding/xml sees wherever encoding/xml reads a part
// (FuzzScanner, and ooxml's TestReadLinesMatchesEncodingXML over the
// shared corpus).
package xmlscan
