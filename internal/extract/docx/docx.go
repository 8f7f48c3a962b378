package docx

import (
	"context"
	"encoding/xml"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/wordpage"
)

// Word packages (.docx .docm), reference/extraction.md §7.1–§7.2
// (readDocxUnits). Places, in this order:
//
//	ページNNN            body paragraphs and table rows of page N (§7.2)
//	ページNNN[図形]      body text boxes, SmartArt and charts anchored on page N
//	ページNNN[コメント]  comments whose w:commentReference is on page N
//	ページNNN[埋め込みK] an embedded Office file referenced on page N (§9)
//	文書[コメント]       comments the body never references, by numeric id
//	ヘッダー・フッター   word/header*.xml then word/footer*.xml, each sorted by
//	                     name, lines already seen dropped
//	脚注                 word/footnotes.xml then word/endnotes.xml
//
// A body without w:lastRenderedPageBreak has no pages recorded by Word:
// its pages are estimated from the page setup and styles (pagelayout.go)
// and their names end in （目安） (ページ003（目安）, ページ003（目安）[図形]).
//
// Failures: no word/document.xml → MsgNoWordBody; not a ZIP → Corrupt with
// ooxml.ErrNotZip in the chain; broken ZIP or XML of the document, comments,
// headers, footers or notes → Corrupt; a size limit → MsgTooLarge. A broken
// chart or SmartArt empties that object, a broken embed skips that embed;
// both are logged.

func init() {
	extract.RegisterFormat(extract.Format{Name: "docx", Extensions: []string{".docx", ".docm"}, Read: readDocx, Whole: true})
}

func readDocx(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	p, err := ooxml.OpenSource(path, opt)
	if err != nil {
		return nil, ooxml.Failure(path, err)
	}
	defer p.Close()
	res, err = readDocxPackage(ctx, p)
	if err != nil {
		return nil, ooxml.Failure(path, err)
	}
	return res, nil
}

func readDocxPackage(ctx context.Context, p *ooxml.Pkg) (*extract.Result, error) {
	if ooxml.Fault != nil {
		ooxml.Fault()
	}
	if !p.Has(ooxml.DocumentPart) {
		return nil, &extract.Error{Msg: extract.MsgNoWordBody, Cause: fmt.Errorf("%s missing", ooxml.DocumentPart)}
	}
	body, err := ooxml.PartLines(p, ooxml.DocumentPart, ooxml.LineOptions{Pages: true, Boxes: true, Objects: true})
	if err != nil {
		return nil, err
	}
	rels, err := p.RelsOf(ooxml.DocumentPart)
	if err != nil {
		return nil, err
	}
	res := &extract.Result{}
	pages := &wordpage.Pages{}
	if !body.Rendered {
		estimatePages(p, body)
		pages.Estimated = true
	}
	page := pages.At
	for _, l := range body.Lines {
		page(l.Page).Body = append(page(l.Page).Body, l.Text)
	}
	commentPage, embeds, err := placeObjects(ctx, p, rels, body.Objects, pages, res)
	if err != nil {
		return nil, err
	}
	comments, err := readDocxComments(p, rels)
	if err != nil {
		return nil, err
	}
	var loose []wordpage.Comment
	for _, c := range comments {
		if n, ok := commentPage[c.Id]; ok {
			page(n).Comments = append(page(n).Comments, c.Text)
		} else {
			loose = append(loose, c)
		}
	}
	sort.SliceStable(loose, func(i, j int) bool { return loose[i].Num < loose[j].Num })

	er := embed.Reader{Ctx: ctx, P: p}
	for _, o := range embeds {
		pl, err := er.Read(rels, o.ID, pages.Name(o.Page))
		if err != nil {
			return nil, err
		}
		if pl != nil {
			page(o.Page).Embeds = append(page(o.Page).Embeds, *pl)
		}
	}
	res.Log = append(res.Log, er.Log...)

	pages.AddPlaces(res)
	var looseText []string
	for _, c := range loose {
		looseText = append(looseText, c.Text)
	}
	extract.AddPlace(res, wordpage.DocComments, looseText)

	if err := ctx.Err(); err != nil {
		return nil, err
	}
	hf, err := readDocxHeaderFooter(p)
	if err != nil {
		return nil, err
	}
	extract.AddPlace(res, extract.PlaceHeaderFooter, hf)

	notes, err := readDocxNotes(p)
	if err != nil {
		return nil, err
	}
	extract.AddPlace(res, wordpage.Footnotes, notes)
	return res, nil
}

// placeObjects puts the body's text boxes, charts and SmartArt on their
// pages as shapes (logging an object that could not be read into res) and
// returns the first page of each comment reference and the embeds in
// reference order.
func placeObjects(ctx context.Context, p *ooxml.Pkg, rels map[string]ooxml.Rel, objects []ooxml.Object, pages *wordpage.Pages, res *extract.Result) (map[string]int, []ooxml.Object, error) {
	page := pages.At
	commentPage := map[string]int{}
	var embeds []ooxml.Object
	for _, o := range objects {
		switch o.Kind {
		case ooxml.ObjTextBox:
			page(o.Page).Shapes = append(page(o.Page).Shapes, o.Text)
		case ooxml.ObjChart, ooxml.ObjSmartArt:
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			text, logLine, err := ooxml.ObjectText(p, ooxml.DocumentPart, rels, o)
			if err != nil {
				return nil, nil, err
			}
			if logLine != "" {
				res.Log = append(res.Log, logLine)
			}
			if text != "" {
				page(o.Page).Shapes = append(page(o.Page).Shapes, text)
			}
		case ooxml.ObjComment:
			if _, ok := commentPage[o.ID]; !ok {
				commentPage[o.ID] = o.Page
			}
		case ooxml.ObjEmbed:
			embeds = append(embeds, o)
		}
	}
	return commentPage, embeds, nil
}

// readDocxNotes returns the lines of the footnotes and then the endnotes.
func readDocxNotes(p *ooxml.Pkg) ([]string, error) {
	var notes []string
	for _, part := range []string{"word/footnotes.xml", "word/endnotes.xml"} {
		if !p.Has(part) {
			continue
		}
		x, err := ooxml.PartLines(p, part, ooxml.LineOptions{})
		if err != nil {
			return nil, err
		}
		notes = append(notes, x.Texts()...)
	}
	return notes, nil
}

// readDocxHeaderFooter reads every word/header*.xml, then every
// word/footer*.xml, each group sorted by name; a line already seen in any
// of them is dropped. Text boxes stay ordinary lines.
func readDocxHeaderFooter(p *ooxml.Pkg) ([]string, error) {
	var headers, footers []string
	for _, n := range p.PartNames() {
		dir, base := path.Split(n)
		if !strings.EqualFold(dir, "word/") || !strings.HasSuffix(strings.ToLower(base), ".xml") {
			continue
		}
		switch lb := strings.ToLower(base); {
		case strings.HasPrefix(lb, "header"):
			headers = append(headers, n)
		case strings.HasPrefix(lb, "footer"):
			footers = append(footers, n)
		}
	}
	sort.Strings(headers)
	sort.Strings(footers)
	seen := map[string]bool{}
	var out []string
	for _, part := range append(headers, footers...) {
		x, err := ooxml.PartLines(p, part, ooxml.LineOptions{})
		if err != nil {
			return nil, err
		}
		for _, t := range x.Texts() {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// readDocxComments reads the comments part of the document (found through
// its relationship, else word/comments.xml), in part order.
func readDocxComments(p *ooxml.Pkg, rels map[string]ooxml.Rel) ([]wordpage.Comment, error) {
	part := "word/comments.xml"
	for _, r := range ooxml.SortedRels(rels) {
		if ooxml.RelTypeIs(r.Type, "comments") && r.Target != "" {
			part = r.Target
			break
		}
	}
	if !p.Has(part) {
		return nil, nil
	}
	var out []wordpage.Comment
	err := p.EachStart(part, func(d *ooxml.Decoder, se xml.StartElement) error {
		if ooxml.IsMC(se.Name) && se.Name.Local == "Fallback" {
			return d.Skip()
		}
		if !ooxml.IsW(se.Name) || se.Name.Local != "comment" {
			return nil
		}
		id := ooxml.Attr(se, "id")
		x, err := ooxml.ReadElementLines(d, se, ooxml.LineOptions{Depth: p.Lim.XMLDepth})
		if err != nil {
			return err
		}
		text := strings.TrimSpace(strings.ReplaceAll(strings.Join(x.Texts(), " "), "\t", " "))
		if text == "" {
			return nil
		}
		num, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64)
		if err != nil {
			num = 1<<63 - 1
		}
		out = append(out, wordpage.Comment{Id: id, Num: num, Text: text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
