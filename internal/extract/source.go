package extract

import (
	"bytes"
	"fmt"
	"io"

	"github.com/fumibako/fumibako/internal/officefile"
	"github.com/fumibako/fumibako/internal/osfile"
)

// MsgNotRegular is the failure of a source that is no regular file when
// it is opened (a named pipe, a device or a folder put in its place after
// the crawl): reading it could block the worker until the deadline.
const MsgNotRegular = "通常のファイルではない（フォルダ・名前付きパイプ・デバイスなどに置き換わっている）ため取り込めません"

// source is what Extract learns of a file before a reader opens it.
type source struct {
	size  int64
	head  []byte // the first officefile.SniffBytes bytes (fewer if shorter)
	tail  []byte // the last officefile.PDFTailBytes bytes (fewer if shorter)
	whole []byte // the whole file, when it is no larger than WholeMax
}

// WholeMax is the size up to which inspect reads a file of a format
// registered Whole whole, for the reader (Options.Data): a small file is
// then opened and read once, not once to sniff and once to read, and a
// small Office package is read from memory, not with a system call per
// ZIP entry (issue 35: most files of a share are small, and each open,
// stat and read is a system call per file). 1 MiB takes most Word and
// Excel files of a business share and the text of most presentations; a
// worker keeps one buffer of this size (Options.ReadBuffer).
const WholeMax = 1 << 20

// inspect opens path without blocking (osfile.OpenNoBlock: a named pipe would
// otherwise wait for a writer), refuses anything but a regular file and
// reads the file's first bytes for sniffing, or (whole) all of a file of
// at most WholeMax bytes; into buf when it is large enough
// (Options.ReadBuffer).
func inspect(path string, whole bool, buf []byte) (*source, error) {
	f, err := osfile.OpenNoBlock(path)
	if err != nil {
		return nil, fmt.Errorf("extract: open %s: %w", path, err)
	}
	defer f.Close()
	fileSize, typ, err := f.SizeAndType()
	if err != nil {
		return nil, fmt.Errorf("extract: stat %s: %w", path, err)
	}
	if typ != 0 {
		return nil, Fail(MsgNotRegular, fmt.Errorf("extract: %s is %v, not a regular file", path, typ))
	}
	whole = whole && fileSize <= WholeMax
	size := min(fileSize, officefile.SniffBytes)
	if whole {
		size = fileSize
	}
	var head []byte
	if int64(cap(buf)) >= size {
		head = buf[:size]
	} else {
		head = make([]byte, size)
	}
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("extract: read %s: %w", path, err)
	}
	src := &source{size: fileSize, head: head[:min(n, officefile.SniffBytes)]}
	if whole {
		// A file that shrank since its stat is what was read; one that
		// grew is read as it was at the stat.
		src.whole, src.size = head[:n], int64(n)
		src.tail = src.whole[max(n-officefile.PDFTailBytes, 0):]
		return src, nil
	}
	src.tail = src.head[max(n-officefile.PDFTailBytes, 0):]
	if fileSize > int64(n) && bytes.HasPrefix(src.head, pdfHeader) {
		// Only a file that starts like a PDF needs its end (IsPDF).
		tail := make([]byte, min(fileSize, officefile.PDFTailBytes))
		m, err := f.ReadAt(tail, fileSize-int64(len(tail)))
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("extract: read %s: %w", path, err)
		}
		src.tail = tail[:m]
	}
	return src, nil
}

// pdfHeader starts a PDF; under another name than .pdf the file must also
// be one (officefile.IsPDF) to go to the PDF reader.
var pdfHeader = []byte("%PDF-")

// route is where Extract sends a file by what its first bytes hold.
type route int

const (
	routeReader route = iota // the reader of the extension
	routeNotZip              // the legacy path (an OOXML name over no ZIP)
	routePDF                 // the PDF reader, whatever the name
	routeFailed              // refused: routeErr says why
)

// routeFor decides, from the first bytes and the last, which reader gets
// a non-empty file named with extension ext: a PDF goes to the PDF reader
// under any name, but only a file that is one (officefile.IsPDF: a
// version in the header, and a trailer at the end or an object at the
// start): a text file that merely starts with "%PDF-" is read as text
// (issue 36 item 8); an image, archive or program (officefile.Foreign), or
// a ZIP or compound file under a text name, is refused (MsgNotText for a
// text name, MsgCorrupt otherwise); an OOXML name over anything but a ZIP
// goes to the legacy path, which classifies it.
func routeFor(ext string, src *source) (route, error) {
	head := src.head
	text := targetKind[ext] == KindText
	if ext != ".pdf" && officefile.IsPDF(head, src.tail) && readers[".pdf"] != nil {
		return routePDF, nil
	}
	if name, ok := officefile.Foreign(head); ok && !ownSignatures[ext] {
		cause := fmt.Errorf("extract: %s content under a %s name", name, ext)
		if text {
			return routeFailed, Fail(MsgNotText, cause)
		}
		return routeFailed, Corrupt(cause)
	}
	if text {
		if f := officefile.SniffHead(head); f == officefile.FormatZIP || f == officefile.FormatCFB {
			return routeFailed, Fail(MsgNotText, fmt.Errorf("extract: %s content under a %s name", f, ext))
		}
	}
	if ooxmlExtensions[ext] && !bytes.HasPrefix(head, []byte("PK")) {
		// "PK" alone (a cut or damaged archive) is still the package
		// reader's to judge.
		return routeNotZip, nil
	}
	return routeReader, nil
}
