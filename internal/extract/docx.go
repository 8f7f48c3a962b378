package extract

import (
	"context"
	"encoding/xml"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
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
// Failures: no word/document.xml → MsgNoWordBody; not a ZIP → Corrupt with
// ErrNotZip in the chain; broken ZIP or XML of the document, comments,
// headers, footers or notes → Corrupt; a size limit → MsgTooLarge. A broken
// chart or SmartArt empties that object, a broken embed skips that embed;
// both are logged.

func init() { register(readDocx, ".docx", ".docm") }

// Place name parts (reference/extraction.md §2.1).
const (
	ooxmlHeaderFooter = "ヘッダー・フッター"
	ooxmlShape        = "[図形]"
	ooxmlComment      = "[コメント]"
)

// Word place names (reference/extraction.md §2.1).
const (
	docxFootnotes   = "脚注"
	docxDocComments = "文書[コメント]"
)

// docxPageName is "ページ%03d".
func docxPageName(n int) string { return fmt.Sprintf("ページ%03d", n) }

// ooxmlEmbed is "[埋め込みN]".
func ooxmlEmbed(n int) string { return "[埋め込み" + strconv.Itoa(n) + "]" }

func readDocx(ctx context.Context, path string, opt Options) (res *Result, err error) {
	defer ooxmlRecover(&res, &err)
	p, err := openPackage(path, opt.limits())
	if err != nil {
		return nil, ooxmlFailure(path, err)
	}
	defer p.Close()
	res, err = readDocxPackage(ctx, p)
	if err != nil {
		return nil, ooxmlFailure(path, err)
	}
	return res, nil
}

// ooxmlRecover turns a panic of a reader into a corrupt-file failure, so
// one hostile file never takes the worker down.
func ooxmlRecover(res **Result, err *error) {
	if r := recover(); r != nil {
		*res = nil
		*err = Corrupt(fmt.Errorf("panic while reading: %v", r))
	}
}

const docxMain = "word/document.xml"

// docxPage collects the places of one page.
type docxPage struct {
	body, shapes, comments []string
	embeds                 []Place
}

// docxPages are the pages of a Word document by number (.docx and .doc).
type docxPages map[int]*docxPage

// at returns page n, creating it.
func (pages docxPages) at(n int) *docxPage {
	if pages[n] == nil {
		pages[n] = &docxPage{}
	}
	return pages[n]
}

// addPlaces appends the places of every page to res in page order:
// ページNNN, its [図形], its [コメント], then its embeds.
func (pages docxPages) addPlaces(res *Result) {
	nums := make([]int, 0, len(pages))
	for n := range pages {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		pg := pages[n]
		name := docxPageName(n)
		ooxmlAddPlace(res, name, pg.body)
		ooxmlAddPlace(res, name+ooxmlShape, pg.shapes)
		ooxmlAddPlace(res, name+ooxmlComment, pg.comments)
		res.Places = append(res.Places, pg.embeds...)
	}
}

// ooxmlFault, set only by tests, runs at the start of every Word and
// PowerPoint package read: a seam to check the panic guard.
var ooxmlFault func()

func readDocxPackage(ctx context.Context, p *pkg) (*Result, error) {
	if ooxmlFault != nil {
		ooxmlFault()
	}
	if !p.has(docxMain) {
		return nil, &Error{Msg: MsgNoWordBody, Cause: fmt.Errorf("%s missing", docxMain)}
	}
	body, err := ooxmlPartLines(p, docxMain, lineOptions{Pages: true, Boxes: true, Objects: true})
	if err != nil {
		return nil, err
	}
	rels, err := p.relsOf(docxMain)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	pages := docxPages{}
	page := pages.at
	for _, l := range body.Lines {
		page(l.Page).body = append(page(l.Page).body, l.Text)
	}
	commentPage := map[string]int{}
	var embeds []xmlObject
	for _, o := range body.Objects {
		switch o.Kind {
		case objTextBox:
			page(o.Page).shapes = append(page(o.Page).shapes, o.Text)
		case objChart, objSmartArt:
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			text, logLine, err := ooxmlObjectText(p, docxMain, rels, o)
			if err != nil {
				return nil, err
			}
			if logLine != "" {
				res.Log = append(res.Log, logLine)
			}
			if text != "" {
				page(o.Page).shapes = append(page(o.Page).shapes, text)
			}
		case objComment:
			if _, ok := commentPage[o.ID]; !ok {
				commentPage[o.ID] = o.Page
			}
		case objEmbed:
			embeds = append(embeds, o)
		}
	}

	comments, err := readDocxComments(p, rels)
	if err != nil {
		return nil, err
	}
	var loose []docxComment
	for _, c := range comments {
		if n, ok := commentPage[c.id]; ok {
			page(n).comments = append(page(n).comments, c.text)
		} else {
			loose = append(loose, c)
		}
	}
	sort.SliceStable(loose, func(i, j int) bool { return loose[i].num < loose[j].num })

	er := embedReader{ctx: ctx, p: p}
	for _, o := range embeds {
		pl, err := er.read(rels, o.ID, docxPageName(o.Page))
		if err != nil {
			return nil, err
		}
		if pl != nil {
			page(o.Page).embeds = append(page(o.Page).embeds, *pl)
		}
	}
	res.Log = append(res.Log, er.log...)

	pages.addPlaces(res)
	var looseText []string
	for _, c := range loose {
		looseText = append(looseText, c.text)
	}
	ooxmlAddPlace(res, docxDocComments, looseText)

	if err := ctx.Err(); err != nil {
		return nil, err
	}
	hf, err := readDocxHeaderFooter(p)
	if err != nil {
		return nil, err
	}
	ooxmlAddPlace(res, ooxmlHeaderFooter, hf)

	var notes []string
	for _, part := range []string{"word/footnotes.xml", "word/endnotes.xml"} {
		if !p.has(part) {
			continue
		}
		x, err := ooxmlPartLines(p, part, lineOptions{})
		if err != nil {
			return nil, err
		}
		notes = append(notes, x.texts()...)
	}
	ooxmlAddPlace(res, docxFootnotes, notes)
	return res, nil
}

// addPlace appends a place when it has a line left after right-trimming and
// dropping empty lines (writeUnits).
func ooxmlAddPlace(r *Result, name string, lines []string) {
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r\n\u3000")
		if l != "" {
			out = append(out, l)
		}
	}
	if len(out) > 0 {
		r.Places = append(r.Places, Place{Name: name, Lines: out})
	}
}

// ooxmlPartLines runs readXmlLines over one part.
func ooxmlPartLines(p *pkg, part string, opt lineOptions) (*xmlLines, error) {
	rc, err := p.open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	opt.Depth = p.lim.XMLDepth
	x, err := readXmlLines(rc, opt)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", part, err)
	}
	return x, nil
}

// readDocxHeaderFooter reads every word/header*.xml, then every
// word/footer*.xml, each group sorted by name; a line already seen in any
// of them is dropped. Text boxes stay ordinary lines.
func readDocxHeaderFooter(p *pkg) ([]string, error) {
	var headers, footers []string
	for _, n := range p.partNames() {
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
		x, err := ooxmlPartLines(p, part, lineOptions{})
		if err != nil {
			return nil, err
		}
		for _, t := range x.texts() {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// docxComment is one w:comment: its id, the id as a number for ordering
// (ids that are not numbers sort last) and its paragraphs joined by spaces.
type docxComment struct {
	id   string
	num  int64
	text string
}

// readDocxComments reads the comments part of the document (found through
// its relationship, else word/comments.xml), in part order.
func readDocxComments(p *pkg, rels map[string]rel) ([]docxComment, error) {
	part := "word/comments.xml"
	for _, r := range ooxmlSortedRels(rels) {
		if relTypeIs(r.Type, "comments") && r.Target != "" {
			part = r.Target
			break
		}
	}
	if !p.has(part) {
		return nil, nil
	}
	var out []docxComment
	err := p.eachStart(part, func(d *xmlDecoder, se xml.StartElement) error {
		if isMC(se.Name) && se.Name.Local == "Fallback" {
			return d.Skip()
		}
		if !isW(se.Name) || se.Name.Local != "comment" {
			return nil
		}
		id := attr(se, "id")
		x, err := readElementLines(d, se, lineOptions{Depth: p.lim.XMLDepth})
		if err != nil {
			return err
		}
		text := strings.TrimSpace(strings.ReplaceAll(strings.Join(x.texts(), " "), "\t", " "))
		if text == "" {
			return nil
		}
		num, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64)
		if err != nil {
			num = 1<<63 - 1
		}
		out = append(out, docxComment{id: id, num: num, text: text})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ooxmlSortedRels returns relationships ordered by id, for deterministic picks.
func ooxmlSortedRels(m map[string]rel) []rel {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]rel, 0, len(ids))
	for _, id := range ids {
		out = append(out, m[id])
	}
	return out
}
