// Package officeart reads the OfficeArt records ([MS-ODRAW]) that Word and
// PowerPoint binaries keep their drawings in: the record header and the
// properties of a shape (OfficeArtFOPT), such as its picture or OLE id.
package officeart
