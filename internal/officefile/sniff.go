package officefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Format is what the first bytes of a file say it is.
type Format int

// Formats, in the order Sniff tests them.
const (
	FormatUnknown Format = iota // neither ZIP nor CFB, a NUL in the first 4 KB
	FormatZIP                   // PK 03 04
	FormatCFB                   // D0 CF 11 E0 A1 B1 1A E1
	FormatText                  // neither ZIP nor CFB, no NUL in the first 4 KB
	FormatPDF                   // "%PDF-" in the first 1 KB
)

func (f Format) String() string {
	switch f {
	case FormatZIP:
		return "ZIP"
	case FormatCFB:
		return "CFB"
	case FormatText:
		return "Text"
	case FormatPDF:
		return "PDF"
	}
	return "Unknown"
}

// SniffBytes is how much of a file Sniff reads (reference/extraction.md §13,
// "protection sniff: first 4 KB").
const SniffBytes = 4096

// pdfHeaderWindow is how far into a file the PDF header may start.
const pdfHeaderWindow = 1024

var (
	zipSignature = []byte("PK\x03\x04")
	cfbSignature = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	// pdfSignature may follow up to 1 KB of junk, as viewers accept
	// (PDF 32000-1 annex H.3, note 3).
	pdfSignature = []byte("%PDF-")
)

// Sniff reads at most the first SniffBytes of r (size bytes long) and says
// which Format it holds. The only error is a failed read.
func Sniff(r io.ReaderAt, size int64) (Format, error) {
	head, err := readHead(r, size, SniffBytes)
	if err != nil {
		return FormatUnknown, err
	}
	return SniffHead(head), nil
}

// SniffHead classifies the first bytes of a file (at most SniffBytes are
// looked at).
func SniffHead(head []byte) Format {
	if len(head) > SniffBytes {
		head = head[:SniffBytes]
	}
	switch {
	case bytes.HasPrefix(head, zipSignature):
		return FormatZIP
	case bytes.HasPrefix(head, cfbSignature):
		return FormatCFB
	case bytes.Contains(head[:min(len(head), pdfHeaderWindow)], pdfSignature):
		return FormatPDF
	case bytes.IndexByte(head, 0) < 0:
		return FormatText
	}
	return FormatUnknown
}

// PDFTailBytes is how much of a file's end IsPDF looks at: PDF readers
// require the trailer's %%EOF within the last 1,024 bytes (PDF 32000-1
// annex H.3, note 18 on 7.5.5).
const PDFTailBytes = 1024

// IsPDF reports whether a file with "%PDF-" in its first 1,024 bytes is a
// PDF, from its first bytes (head) and its last PDFTailBytes (tail): the
// header has a version (%PDF-1.4, %PDF-2.0), and the file ends with a
// trailer (startxref or %%EOF in tail) or, cut short, has an indirect
// object ("1 0 obj") after the header. A text file that merely starts
// with "%PDF-" (a note, a CSV row) is none (issue 36 item 8). The header
// may follow other bytes (a mail or HTTP header a program saved with the
// file), as PDF readers accept it anywhere in the first 1,024 bytes
// (issue 33).
func IsPDF(head, tail []byte) bool {
	at := bytes.Index(head[:min(len(head), pdfHeaderWindow)], pdfSignature)
	if at < 0 {
		return false
	}
	rest := head[at+len(pdfSignature):]
	if len(rest) < 3 || !isDigit(rest[0]) || rest[1] != '.' || !isDigit(rest[2]) {
		return false
	}
	if bytes.Contains(tail, []byte("startxref")) || bytes.Contains(tail, []byte("%%EOF")) {
		return true
	}
	return pdfObject.Match(rest[3:min(len(rest), SniffBytes)])
}

// pdfObject finds an indirect object's header ("12 0 obj") at the start of
// a line (PDF 32000-1 7.3.10).
var pdfObject = regexp.MustCompile(`(?:^|[\r\n])\s*\d{1,10}\s+\d{1,5}\s+obj\b`)

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// readHead reads min(size, n) bytes from the start of r.
func readHead(r io.ReaderAt, size int64, n int) ([]byte, error) {
	if size < 0 {
		return nil, fmt.Errorf("officefile: negative size %d", size)
	}
	if int64(n) > size {
		n = int(size)
	}
	buf := make([]byte, n)
	got, err := r.ReadAt(buf, 0)
	if got == n {
		return buf, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return nil, fmt.Errorf("officefile: read first %d bytes: %w", n, err)
}

// IsBIFFStream reports whether head starts with the BOF record of an Excel
// 2.x–4.x worksheet or workbook ([MS-XLS] predecessors: record 0x0009 with 4
// bytes, 0x0209 or 0x0409 with 6, sheet type worksheet, chart, macro sheet
// or workbook). Such files are bare BIFF streams, not compound files, and
// hold NULs in their first bytes, so Sniff calls them Unknown; LibreOffice
// reads them.
func IsBIFFStream(head []byte) bool {
	if len(head) < 8 {
		return false
	}
	typ := uint16(head[0]) | uint16(head[1])<<8
	n := uint16(head[2]) | uint16(head[3])<<8
	dt := uint16(head[6]) | uint16(head[7])<<8
	switch {
	case typ == 0x0009 && n == 4, (typ == 0x0209 || typ == 0x0409) && n == 6:
	default:
		return false
	}
	switch dt {
	case 0x0010, 0x0020, 0x0040, 0x0100:
		return true
	}
	return false
}

// odfPrefix starts the media types of OpenDocument packages.
const odfPrefix = "application/vnd.oasis.opendocument."

// ODFMimeType returns the media type an OpenDocument package names in its
// first ZIP entry, "mimetype", stored uncompressed (OpenDocument 1.3 part
// 2 §3.3), and false when head does not start so.
func ODFMimeType(head []byte) (string, bool) {
	const local = 30 // fixed part of a ZIP local file header
	if len(head) < local || !bytes.HasPrefix(head, zipSignature) {
		return "", false
	}
	le16 := func(i int) int { return int(head[i]) | int(head[i+1])<<8 }
	method, csize := le16(8), le16(18)|le16(20)<<16
	nameLen, extraLen := le16(26), le16(28)
	name := local + nameLen
	if method != 0 || len(head) < name || string(head[local:name]) != "mimetype" {
		return "", false
	}
	data := name + extraLen
	if csize > 256 || len(head) < data+csize {
		return "", false
	}
	typ := string(head[data : data+csize])
	if !strings.HasPrefix(typ, odfPrefix) {
		return "", false
	}
	return typ, true
}

// IsRTF reports whether head starts like an RTF document, {\rtf, after an
// optional UTF-8 BOM and blanks.
func IsRTF(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	return bytes.HasPrefix(head, []byte(`{\rtf`))
}
