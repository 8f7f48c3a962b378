package doc

import (
	"context"
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/extract/internal/wordpage"
)

// Native reader of Word 97–2003 documents (.doc, [MS-DOC]), the fast path
// before LibreOffice. Places, as docx.readDocxPackage gives them for a package
// (reference/extraction.md §7.1):
//
//	ページNNN            main-document paragraphs and table rows of page N
//	ページNNN[図形]      text boxes (ccpTxbx stories, one line each, their
//	                     paragraphs joined by spaces), on the page of the
//	                     shape's anchor (PlcSpaMom, matched through the
//	                     FTXBXS lid), else on page 1; and charts
//	                     LibreOffice embedded (internal/embed/odfchart.go)
//	ページNNN[コメント]  comments (ccpAtn stories, one line each) on the page
//	                     of their reference (PlcfandRef)
//	ページNNN[埋め込みK] embedded Office objects referenced on page N
//	                     (internal/embed/compound.go)
//	文書[コメント]       comments whose reference is outside the main text
//	ヘッダー・フッター   header stories, then footer stories, section by
//	                     section (PlcfHdd, separators skipped), then the
//	                     header text boxes; lines already seen dropped
//	脚注                 footnotes, then endnotes
//
// Pages come from the explicit breaks the file holds (lines.go) and,
// as the format records no rendered breaks, from the layout estimate of
// pagelayout.go: every page name ends in （目安）. Word 6.0/95 documents (their
// FIB, code pages and sprms: word6.go, word6_sprm.go, codepage.go) give the
// same places. Encrypted files fail with MsgPassword or MsgRights before
// anything is parsed; older versions and anything malformed fail with the
// corrupt-file message (the caller then converts the file with
// LibreOffice).

func init() {
	extract.RegisterFormat(extract.Format{
		Name: "doc", Extensions: []string{".doc"}, Read: readDocNative, Native: true,
		Embedded: []extract.Embedded{{Holds: "WordDocument", Read: embeddedText}},
	})
}

// embeddedText returns the body paragraphs and table rows of a Word
// document embedded in another file (a streams.Storage).
func embeddedText(_ context.Context, container any) ([]string, error) {
	s := container.(streams.Storage)
	r, fib, _, err := openDocReader(s.File, s.Prefix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range r.lines(0, fib.ccp[storyMain], false) {
		out = append(out, l.text)
	}
	return out, nil
}

func readDocNative(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	c, err := streams.Open(path, opt.ResolvedLimits())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err = readDocCompound(ctx, c, opt.ResolvedLimits())
	return res, extract.Failure(err)
}

// openDocReader reads the FIB, table stream and piece table of the Word
// document whose streams are under prefix of c ("" for the file itself).
func openDocReader(c *streams.File, prefix string) (*reader, *fib, []byte, error) {
	word, err := c.Stream(prefix + "WordDocument")
	if err != nil {
		return nil, nil, nil, err
	}
	fib, err := parseFib(word)
	if err != nil {
		return nil, nil, nil, err
	}
	table, text := word, (*docText)(nil) // Word 6/95 has no table stream
	if fib.w6 != nil {
		text, err = readPieces6(fib, word)
	} else if table, err = c.Stream(prefix + fib.tableName()); err == nil {
		text, err = readPieces(fib, table, word)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	// Huge paragraph properties are read from the Data stream one at a
	// time: the stream mostly holds pictures.
	huge := func(off int64) []byte {
		b, err := c.ReadAt(prefix+"Data", off, 2)
		if err != nil {
			return nil
		}
		g, err := c.ReadAt(prefix+"Data", off+2, int(binary.LittleEndian.Uint16(b)))
		if err != nil {
			return nil
		}
		return g
	}
	r := &reader{
		text:     text,
		papx:     newDocPapx(fib, table, word, huge),
		chpx:     newDocChpx(fib, table, word),
		sections: sections(fib, table, word),
		page:     1,
	}
	return r, fib, table, nil
}

func readDocCompound(ctx context.Context, c *streams.File, lim extract.Limits) (*extract.Result, error) {
	r, fib, table, err := openDocReader(c, "")
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pages := &wordpage.Pages{Estimated: true} // a .doc records no page breaks
	page := pages.At
	for _, l := range r.estimatePages(fib, table, r.lines(0, fib.ccp[storyMain], true)) {
		page(l.page).Body = append(page(l.page).Body, l.text)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	for _, b := range textBoxes(r, fib, table) {
		page(b.page).Shapes = append(page(b.page).Shapes, b.text)
	}
	var loose []string
	for _, cm := range comments(r, fib, table) {
		if cm.page > 0 {
			page(cm.page).Comments = append(page(cm.page).Comments, cm.text)
		} else {
			loose = append(loose, cm.text)
		}
	}

	er := embed.NativeEmbeds{Ctx: ctx, Lim: lim, Read: c.Read}
	var shapeObjects, spids map[uint32]uint32
	for _, e := range r.embeds {
		if e.shape {
			if shapeObjects == nil {
				shapeObjects = docShapeObjects(fib, table)
				spids = anchorShapes(fib, table)
			}
			spid, ok := spids[uint32(e.cp)]
			if !ok {
				continue
			}
			if e.id, ok = shapeObjects[spid]; !ok {
				continue
			}
		}
		name := "_" + strconv.FormatUint(uint64(e.id), 10)
		prefix := embed.StorageKey(name)
		if !c.HasStorage(prefix) {
			continue
		}
		pg := r.pageAt(e.cp)
		pl, err := er.Place(c, prefix, nil, prefix, "ObjectPool/"+name, pages.Name(pg))
		if err != nil {
			return nil, err
		}
		switch {
		case pl == nil:
		case strings.HasSuffix(pl.Name, extract.PlaceShape):
			page(pg).Shapes = append(page(pg).Shapes, pl.Lines...)
		default:
			page(pg).Embeds = append(page(pg).Embeds, *pl)
		}
	}

	res := &extract.Result{Log: er.Log}
	pages.AddPlaces(res)
	extract.AddPlace(res, wordpage.DocComments, loose)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	extract.AddPlace(res, extract.PlaceHeaderFooter, headerFooter(r, fib, table))

	var notes []string
	for _, s := range []int{storyFtn, storyEdn} {
		from := fib.storyStart(s)
		for _, l := range r.lines(from, from+fib.ccp[s], false) {
			notes = append(notes, l.text)
		}
	}
	extract.AddPlace(res, wordpage.Footnotes, notes)
	return res, nil
}

// headerFooter reads the header stories of PlcfHdd: after the six
// separator stories, each section has six (even header, odd header, even
// footer, odd footer, first-page header, first-page footer). Headers come
// first, then footers, then the header text boxes; repeated lines are
// dropped.
func headerFooter(r *reader, fib *fib, table []byte) []string {
	base := fib.storyStart(storyHdd)
	var headers, footers []string
	for _, s := range hddStories(fib, table) {
		if s.from < 0 || s.to > fib.ccp[storyHdd] || s.from >= s.to {
			continue
		}
		for _, l := range r.lines(base+s.from, base+s.to, false) {
			if s.header {
				headers = append(headers, l.text)
			} else {
				footers = append(footers, l.text)
			}
		}
	}
	all := append(headers, footers...)
	from := fib.storyStart(storyHdrTxbx)
	for _, l := range r.lines(from, from+fib.ccp[storyHdrTxbx], false) {
		all = append(all, l.text)
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range all {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// hddStory is one header or footer story: its CPs in the header
// stories, and whether it is a header.
type hddStory struct {
	from, to int64
	header   bool
}

// hddStories lists the header stories of PlcfHdd (Word 97: every
// section has all six; Word 6/95: headerStories6).
func hddStories(fib *fib, table []byte) []hddStory {
	if fib.w6 != nil {
		return headerStories6(fib, table)
	}
	cps, _ := plc(fib.blob(table, fcPlcfHdd), 0)
	var out []hddStory
	for i := 6; i+1 < len(cps); i++ {
		k := (i - 6) % 6
		out = append(out, hddStory{from: cps[i], to: cps[i+1], header: k == 0 || k == 1 || k == 4})
	}
	return out
}

// object is one text box or comment: its text and page (0: none).
type object struct {
	text string
	page int
}

// anchorShapes maps the CP of each shape anchor of the main document
// (PlcSpaMom) to the shape's id (FSPA.spid).
func anchorShapes(fib *fib, table []byte) map[uint32]uint32 {
	cps, spas := plc(fib.blob(table, fcPlcSpaMom), 26)
	out := make(map[uint32]uint32, len(spas))
	for i, d := range spas {
		out[uint32(cps[i])] = binary.LittleEndian.Uint32(d)
	}
	return out
}

// textBoxes reads the text-box stories of PlcftxbxTxt, one object per
// box, placed through the box's shape (FTXBXS.lid = FSPA.spid of
// PlcSpaMom, whose CP is the anchor).
func textBoxes(r *reader, fib *fib, table []byte) []object {
	base := fib.storyStart(storyTxbx)
	cps, data := plc(fib.blob(table, fcPlcftxbxTxt), 22)
	anchorCPs, spas := plc(fib.blob(table, fcPlcSpaMom), 26)
	anchor := map[uint32]int64{}
	for i, d := range spas {
		anchor[binary.LittleEndian.Uint32(d)] = anchorCPs[i]
	}
	var out []object
	for i, d := range data {
		if i == len(data)-1 || binary.LittleEndian.Uint16(d[8:]) != 0 {
			continue // reusable structures carry no box
		}
		from, to := cps[i], cps[i+1]
		if from < 0 || to > fib.ccp[storyTxbx] || from >= to {
			continue
		}
		text := joinDocLines(r.lines(base+from, base+to, false))
		if text == "" {
			continue
		}
		pg := 1
		if cp, ok := anchor[binary.LittleEndian.Uint32(d[14:])]; ok && cp >= 0 && cp < fib.ccp[storyMain] {
			pg = r.pageAt(cp)
		}
		out = append(out, object{text: text, page: pg})
	}
	return out
}

// comments reads the comment stories of PlcfandTxt, one object per
// comment, on the page of its reference in PlcfandRef (0 when the
// reference is missing or outside the main text).
func comments(r *reader, fib *fib, table []byte) []object {
	base := fib.storyStart(storyAtn)
	cps, _ := plc(fib.blob(table, fcPlcfandTxt), 0)
	atrd := 30 // ATRD; Word 6/95's has 8-bit initials
	if fib.w6 != nil {
		atrd = 20
	}
	refs, _ := plc(fib.blob(table, fcPlcfandRef), atrd)
	var out []object
	for i := 0; i+1 < len(cps); i++ {
		from, to := cps[i], cps[i+1]
		if from < 0 || to > fib.ccp[storyAtn] || from >= to {
			continue
		}
		text := joinDocLines(r.lines(base+from, base+to, false))
		if text == "" {
			continue
		}
		pg := 0
		if i+1 < len(refs) && refs[i] >= 0 && refs[i] < fib.ccp[storyMain] {
			pg = r.pageAt(refs[i])
		}
		out = append(out, object{text: text, page: pg})
	}
	return out
}
