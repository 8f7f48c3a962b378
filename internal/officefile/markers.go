package officefile

import (
	"encoding/binary"
	"fmt"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
)

// Legacy encryption markers of the binary formats (package comment). Each
// reads at most markerBytes of one root-level stream.

const markerBytes = 8192

// BIFF record types ([MS-XLS] 2.3).
const (
	biffBOF        = 0x0809
	biffEOF        = 0x000A
	biffFilePass   = 0x002F
	biffBoundSheet = 0x0085
)

// PowerPoint CurrentUserAtom.headerToken of an encrypted document ([MS-PPT]
// 2.3.2; 0xE391C05F is the plain one).
const pptEncryptedToken = 0xF3D1C4DF

func legacyMarkers(c *cfb.File) (Protection, string) {
	for _, name := range []string{"Workbook", "Book"} {
		e, ok := rootStreamNamed(c, name)
		if !ok {
			continue
		}
		b, err := readStream(c, e, markerBytes)
		if err != nil {
			return Legacy, ""
		}
		return biffProtection(b)
	}
	if e, ok := rootStreamNamed(c, "WordDocument"); ok {
		b, err := readStream(c, e, 32)
		if err == nil && len(b) >= 12 && binary.LittleEndian.Uint16(b[10:])&0x0100 != 0 {
			return Password, "Word FIB fEncrypted"
		}
		return Legacy, ""
	}
	if _, ok := rootStreamNamed(c, "EncryptedSummary"); ok {
		return Password, "PowerPoint EncryptedSummary stream"
	}
	if e, ok := rootStreamNamed(c, "Current User"); ok {
		b, err := readStream(c, e, 16)
		if err == nil && len(b) >= 16 && binary.LittleEndian.Uint32(b[12:]) == pptEncryptedToken {
			return Password, "PowerPoint CurrentUserAtom headerToken of an encrypted document"
		}
	}
	return Legacy, ""
}

// biffProtection scans the records at the start of a Workbook (BIFF8) or
// Book (BIFF5) stream for FilePass. Record headers stay in clear text after
// FilePass, so the scan can go on past it; it stops at the end of the
// globals substream, at the first BoundSheet (FilePass precedes it) or at
// the end of what was read.
func biffProtection(b []byte) (Protection, string) {
	le := binary.LittleEndian
	biff5 := false
	for off := 0; off+4 <= len(b); {
		typ, n := le.Uint16(b[off:]), int(le.Uint16(b[off+2:]))
		data := b[off+4 : min(len(b), off+4+n)]
		switch {
		case off == 0 && typ != biffBOF:
			return Legacy, ""
		case off == 0:
			biff5 = len(data) >= 2 && le.Uint16(data) == 0x0500
		case typ == biffFilePass:
			if ok, how := filePassAccepts(data, biff5, defaultPassword); ok {
				return Legacy, fmt.Sprintf("BIFF FilePass (%s) with Excel's default password", how)
			}
			return Password, "BIFF FilePass record"
		case typ == biffEOF || typ == biffBoundSheet:
			return Legacy, ""
		}
		off += 4 + n
	}
	return Legacy, ""
}
