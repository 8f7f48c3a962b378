// Package odf reads OpenDocument files (.odt .ods .odp) and their flat
// XML forms (.fodt .fods .fodp) into the places of their Office
// counterparts (reference/extraction.md §2.1):
//
//	text (.odt .fodt), as Word:
//	  ページNNN            paragraphs and table rows; the page advances on
//	                       explicit breaks (fo:break-before/after="page" of a
//	                       paragraph or table style, a new master page) and
//	                       on the text:soft-page-break marks LibreOffice
//	                       records at save; one right after an explicit
//	                       break is the same break
//	  ページNNN[図形]      text boxes and drawing shapes anchored on page N
//	  ページNNN[コメント]  office:annotation anchored on page N
//	  ヘッダー・フッター   headers, then footers, of every master page
//	  脚注                 footnotes, then endnotes
//	spreadsheet (.ods .fods), as Excel (hidden sheets skipped):
//	  <sheet>                  line N = row N, field k = column k: the
//	                           displayed text ODF stores in text:p
//	  <sheet>[図形]            "<cell><TAB><text>" per shape (table:shapes at A1)
//	  <sheet>[コメント]        "<cell><TAB><text>" per cell annotation
//	  <sheet>[ヘッダー・フッター] the sheet's master page header and footer
//	presentation (.odp .fodp), as PowerPoint:
//	  スライドNNN / スライドNNN（非表示） all text of the slide's shapes and tables
//	  スライドNNN_ノート   presentation:notes
//	  スライドNNN[図形]    charts: title, subtitle, axis titles, series names
//	  スライドNNN[コメント] annotations, one line each
//	  ヘッダー・フッター   footer texts the slides show, duplicates removed
//
// Which of the three a file is comes from its office:body, not its name.
// A package whose manifest has encryption-data fails with MsgPassword;
// ZIP and XML limits are those of the OOXML packages (ooxml.Pkg). A chart
// (an embedded object part) is read as a shape in text and spreadsheets,
// as [図形] on slides; other embedded objects (OLE, formulas) are not
// read, nor are the inline charts of flat files.
package odf

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/officefile"
)

func init() {
	extract.RegisterFormat(extract.Format{Name: "odf", Extensions: []string{".odt", ".ods", ".odp"}, Read: readPackage, Whole: true})
	extract.RegisterFormat(extract.Format{Name: "odf-flat", Extensions: []string{".fodt", ".fods", ".fodp"}, Read: readFlat})
}

// ErrNoContent is the cause when a package has no content.xml or a
// document no office:body.
var ErrNoContent = errors.New("odf: no document body")

func readPackage(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	lim := opt.ResolvedLimits()
	head, err := opt.Data, error(nil)
	if head == nil {
		head, err = readHead(path)
	}
	if err == nil && officefile.IsRTF(head) {
		// An RTF document saved under an OpenDocument name (a renamed
		// file) is read as what it is.
		if r := extract.ReaderFor(".rtf"); r != nil {
			return r(ctx, path, opt)
		}
	}
	p, err := ooxml.OpenSource(path, opt)
	if err != nil {
		return nil, ooxml.Failure(path, err)
	}
	defer p.Close()
	res, err = readODF(ctx, p, lim, opt.HiddenSheets)
	if err != nil {
		return nil, failure(path, err)
	}
	return res, nil
}

// failure maps a reader error: too much sheet text → MsgOutOfMemory, the
// rest as every package reader does.
func failure(path string, err error) error {
	if errors.Is(err, sheet.ErrTooMuchText) {
		return &extract.Error{Msg: extract.MsgOutOfMemory, Cause: err}
	}
	return ooxml.Failure(path, err)
}

// readODF reads an opened package: the manifest (encryption), styles.xml
// (styles and master pages), then content.xml.
func readODF(ctx context.Context, p *ooxml.Pkg, lim extract.Limits, hiddenSheets bool) (*extract.Result, error) {
	if p.Has("META-INF/manifest.xml") {
		enc, err := encrypted(p, lim)
		if err != nil {
			return nil, err
		}
		if enc {
			return nil, &extract.Error{Msg: extract.MsgPassword, Cause: errors.New("odf: manifest lists encryption-data")}
		}
	}
	if !p.Has("content.xml") {
		return nil, fmt.Errorf("content.xml missing: %w", ErrNoContent)
	}
	w := newWalker(ctx)
	w.hiddenSheets = hiddenSheets
	w.pkg = p
	if p.Has("styles.xml") {
		if err := walkPart(p, "styles.xml", lim, w); err != nil {
			return nil, err
		}
	}
	if err := walkPart(p, "content.xml", lim, w); err != nil {
		return nil, err
	}
	return w.result()
}

func walkPart(p *ooxml.Pkg, part string, lim extract.Limits, w *walker) error {
	rc, err := p.Open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := w.document(newDecoder(rc, lim.XMLDepth)); err != nil {
		return fmt.Errorf("%s: %w", part, err)
	}
	return nil
}

// readHead returns the first officefile.SniffBytes of a file.
func readHead(path string) ([]byte, error) {
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, min(size, officefile.SniffBytes))
	_, err = io.ReadFull(f, b)
	return b, err
}

// encrypted reports whether the manifest describes an encrypted entry.
func encrypted(p *ooxml.Pkg, lim extract.Limits) (bool, error) {
	rc, err := p.Open("META-INF/manifest.xml")
	if err != nil {
		return false, err
	}
	defer rc.Close()
	d := newDecoder(rc, lim.XMLDepth)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("META-INF/manifest.xml: %w", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "encryption-data" {
			return true, nil
		}
	}
}

// readFlat reads a flat OpenDocument file: one XML document holding
// styles, master pages and body, read under the limit of one ZIP part.
func readFlat(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	lim := opt.ResolvedLimits()
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > lim.ZipPartBytes {
		return nil, &extract.Error{Msg: extract.MsgTooLarge, Cause: fmt.Errorf("odf: %s: %d bytes over %d", filepath.Base(path), size, lim.ZipPartBytes)}
	}
	w := newWalker(ctx)
	w.hiddenSheets = opt.HiddenSheets
	if err := w.document(newDecoder(io.LimitReader(f, lim.ZipPartBytes), lim.XMLDepth)); err != nil {
		return nil, failure(path, err)
	}
	if res, err = w.result(); err != nil {
		return nil, failure(path, err)
	}
	return res, nil
}

// Namespaces of the elements read.
const (
	nsOffice    = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	nsStyle     = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
	nsText      = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	nsTable     = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	nsDraw      = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
	nsFo        = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
	nsPres      = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
	nsSvg       = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
	nsDc        = "http://purl.org/dc/elements/1.1/"
	nsMeta      = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
	nsOfficeOOo = "http://openoffice.org/2009/office"
)

func is(n xml.Name, space, local string) bool { return n.Space == space && n.Local == local }

// attr returns the value of the attribute space:local.
func attr(se xml.StartElement, space, local string) string {
	for _, a := range se.Attr {
		if a.Name.Space == space && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// isAnnotation reports an ODF comment element (office:annotation, and
// officeooo:annotation which LibreOffice writes in presentations).
func isAnnotation(n xml.Name) bool {
	return n.Local == "annotation" && (n.Space == nsOffice || n.Space == nsOfficeOOo)
}

// joinSpace joins paragraphs into one object line.
func joinSpace(lines []string) string {
	return strings.TrimSpace(strings.Join(lines, " "))
}

// newDecoder is the XML decoder of every ODF part: the OOXML one (limits,
// DTDs refused) with a bare DOCTYPE let through, which OpenOffice.org 2.x
// writes into META-INF/manifest.xml (issue 33); a DOCTYPE declaring
// entities stays refused.
func newDecoder(r io.Reader, maxDepth int) *ooxml.Decoder {
	d := ooxml.NewDecoder(r, maxDepth)
	d.BareDoctype = true
	return d
}
