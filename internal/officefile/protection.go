package officefile

import (
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
)

// Protection is the reference's classification of a file before it is
// opened (reference/extraction.md §10), named as the reference names the
// kinds; None is the reference's `Zip`.
type Protection int

// Protections.
const (
	None     Protection = iota // a ZIP package: read directly
	Password                   // a read password is set
	Rights                     // IRM or a sensitivity label
	Legacy                     // any other CFB, or one whose directory cannot be read
	Text                       // neither ZIP nor CFB, no NUL in the first 4 KB
	Unknown                    // neither ZIP nor CFB, a NUL in the first 4 KB: no known format, no sign of encryption
)

// Encrypted reports whether p says the file is encrypted: only Password
// and Rights, which rest on the format's own encryption streams or records
// (package comment). Unknown is no evidence of encryption.
func (p Protection) Encrypted() bool { return p == Password || p == Rights }

// String returns the reference's name of the kind, as the log line
// `    暗号化の判定: Password|Rights|Unknown` writes it.
func (p Protection) String() string {
	switch p {
	case None:
		return "Zip"
	case Password:
		return "Password"
	case Rights:
		return "Rights"
	case Legacy:
		return "Legacy"
	case Text:
		return "Text"
	}
	return "Unknown"
}

// Detection is the outcome of Detect.
type Detection struct {
	Format     Format
	Protection Protection
	// Reason says in English what decided it ("CFB entry EncryptionInfo",
	// "Word FIB fEncrypted"), for verbose output and the log.
	Reason string
	// Program is the application of a binary compound file, told by its
	// root-level stream: ProgramExcel (Workbook or Book), ProgramWord
	// (WordDocument), ProgramPowerPoint (PowerPoint Document); empty when
	// none is found or the file is no CFB.
	Program string
}

// Programs of Detection.Program.
const (
	ProgramExcel      = "Excel"
	ProgramWord       = "Word"
	ProgramPowerPoint = "PowerPoint"
)

// DetectProtection classifies r (size bytes long); see Detect.
func DetectProtection(r io.ReaderAt, size int64) (Protection, error) {
	d, err := Detect(r, size)
	return d.Protection, err
}

// Detect sniffs r and classifies its protection (package comment). The only
// error is a failed read of the first bytes; a malformed compound file is
// Legacy, as in the reference, and left to the converter to reject.
func Detect(r io.ReaderAt, size int64) (Detection, error) {
	f, err := Sniff(r, size)
	if err != nil {
		return Detection{Protection: Unknown}, err
	}
	d := Detection{Format: f}
	switch f {
	case FormatZIP:
		d.Protection = None
	case FormatText:
		d.Protection = Text
	case FormatUnknown:
		d.Protection, d.Reason = Unknown, "neither ZIP nor CFB, with a NUL in the first 4 KB: no known format"
	case FormatCFB:
		d.Protection, d.Reason, d.Program = detectCFB(r, size)
	}
	return d, nil
}

// Directory names of §10.
var (
	passwordEntries = []string{"EncryptionInfo", "StrongEncryptionDataSpace"}
	rightsEntries   = []string{"DRMEncryptedDataSpace", "DRMEncryptedTransform", "\x09DRMContent"}
	dataSpaces      = "\x06DataSpaces"
)

func detectCFB(r io.ReaderAt, size int64) (Protection, string, string) {
	c, err := cfb.Open(r, size)
	if err != nil {
		return Legacy, "compound file header unreadable: " + err.Error(), ""
	}
	d := DetectCompound(c)
	return d.Protection, d.Reason, d.Program
}

// DetectCompound is Detect for a compound file already parsed, so that a
// reader classifies and reads it from one parse.
func DetectCompound(c *cfb.File) Detection {
	d := Detection{Format: FormatCFB}
	d.Protection, d.Reason, d.Program = classifyCompound(c)
	return d
}

func classifyCompound(c *cfb.File) (Protection, string, string) {
	if len(c.Entries) == 0 {
		return Legacy, "compound file directory unreadable", ""
	}
	program := cfbProgram(c)
	for _, n := range passwordEntries {
		if hasName(c, n) {
			return Password, "CFB entry " + n, program
		}
	}
	for _, n := range rightsEntries {
		if hasName(c, n) {
			return Rights, "CFB entry " + strings.TrimLeft(n, "\x09"), program
		}
	}
	if hasName(c, dataSpaces) {
		return Rights, "CFB entry DataSpaces without a known transform", program
	}
	p, why := legacyMarkers(c)
	return p, why, program
}

func cfbProgram(c *cfb.File) string {
	for _, s := range []struct{ stream, program string }{
		{"Workbook", ProgramExcel}, {"Book", ProgramExcel},
		{"WordDocument", ProgramWord}, {"PowerPoint Document", ProgramPowerPoint},
	} {
		if _, ok := rootStreamNamed(c, s.stream); ok {
			return s.program
		}
	}
	return ""
}
