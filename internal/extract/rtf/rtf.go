// Package rtf reads Rich Text Format files (.rtf) into Word's places
// (reference/extraction.md §2.1):
//
//	ページNNN            paragraphs and table rows (cells joined by TAB,
//	                     trailing empty cells removed, nested tables
//	                     flattened into their cell); the page advances on
//	                     \page and on a paragraph with \pagebb
//	ページNNN[図形]      the text of a shape (\shptxt) on page N
//	ページNNN[コメント]  an annotation (\annotation) on page N
//	ヘッダー・フッター   all \header* then all \footer* texts, duplicates removed
//	脚注                 \footnote texts, footnotes then endnotes (\ftnalt)
//
// Text is decoded through the code page of the current font (\fcharset,
// \cpg) or the document's \ansicpg, for \'hh escapes and raw bytes alike;
// \uN escapes are Unicode with the \ucN fallback characters skipped.
// Destinations marked \* that are not read, and the font, colour, style,
// list and information tables (and list groups outside them, {\list}),
// pictures, objects' data and field instructions are skipped; a control
// character that still comes out of the decoding is dropped. A row whose
// \row never comes keeps its cells: the row ends at the next paragraph
// outside the table, the next \trowd or the end of the document
// (issue 33).
package rtf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/officefile"
)

func init() {
	extract.RegisterFormat(extract.Format{Name: "rtf", Extensions: []string{".rtf"}, Read: readRTF})
}

// ErrNotRTF is the cause when a .rtf file does not start with {\rtf.
var ErrNotRTF = errors.New("rtf: not an RTF file")

func readRTF(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	lim := opt.ResolvedLimits()
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > lim.ZipPartBytes {
		return nil, &extract.Error{Msg: extract.MsgTooLarge, Cause: fmt.Errorf("rtf: %s: %d bytes over %d", filepath.Base(path), size, lim.ZipPartBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, lim.ZipPartBytes))
	if err != nil {
		return nil, fmt.Errorf("rtf: read %s: %w", path, err)
	}
	if _, ok := officefile.ODFMimeType(data[:min(len(data), officefile.SniffBytes)]); ok {
		// An OpenDocument package saved under the RTF name.
		if r := extract.ReaderFor(".odt"); r != nil {
			return r(ctx, path, opt)
		}
	}
	res, err = Parse(ctx, data, lim.XMLDepth)
	if err != nil {
		return nil, extract.Failure(err)
	}
	return res, nil
}

// Parse reads RTF bytes; groups may nest maxDepth deep.
func Parse(ctx context.Context, data []byte, maxDepth int) (*extract.Result, error) {
	if !officefile.IsRTF(data[:min(len(data), officefile.SniffBytes)]) {
		return nil, ErrNotRTF
	}
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	p := newParser(ctx, data, maxDepth)
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.result(), nil
}
