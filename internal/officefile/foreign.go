package officefile

import "bytes"

// foreignSignatures are the first bytes of common files that are none of
// the documents fumibako reads (images, archives, programs), strong enough
// that a text file cannot start so by accident. ZIP, CFB and PDF are not
// here: Sniff names them.
var foreignSignatures = []struct {
	name string
	at   int
	sig  string
}{
	{"PNG", 0, "\x89PNG\r\n\x1a\n"},
	{"JPEG", 0, "\xff\xd8\xff"},
	{"GIF", 0, "GIF87a"},
	{"GIF", 0, "GIF89a"},
	{"TIFF", 0, "II*\x00"},
	{"TIFF", 0, "MM\x00*"},
	{"WebP", 8, "WEBP"},
	{"7z", 0, "7z\xbc\xaf\x27\x1c"},
	{"RAR", 0, "Rar!\x1a\x07"},
	{"gzip", 0, "\x1f\x8b\x08"},
	{"xz", 0, "\xfd7zXZ\x00"},
	{"zstd", 0, "\x28\xb5\x2f\xfd"},
	{"ELF", 0, "\x7fELF"},
	{"MP4", 4, "ftyp"},
}

// Foreign names the format of a file whose first bytes are those of an
// image, an archive or a program (PNG, JPEG, GIF, TIFF, WebP, 7z, RAR,
// gzip, xz, zstd, ELF, MP4), so that a reader never takes it for the
// document its name promises; ok is false for anything else.
func Foreign(head []byte) (name string, ok bool) {
	for _, s := range foreignSignatures {
		if len(head) >= s.at+len(s.sig) && bytes.Equal(head[s.at:s.at+len(s.sig)], []byte(s.sig)) {
			if s.name == "WebP" && !bytes.HasPrefix(head, []byte("RIFF")) {
				continue
			}
			return s.name, true
		}
	}
	return "", false
}
