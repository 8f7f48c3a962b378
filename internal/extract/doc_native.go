package extract

import (
	"context"
	"encoding/binary"
	"strconv"
	"strings"
)

// Native reader of Word 97–2003 documents (.doc, [MS-DOC]), the fast path
// before LibreOffice. Places, as readDocxPackage gives them for a package
// (reference/extraction.md §7.1):
//
//	ページNNN            main-document paragraphs and table rows of page N
//	ページNNN[図形]      text boxes (ccpTxbx stories, one line each, their
//	                     paragraphs joined by spaces), on the page of the
//	                     shape's anchor (PlcSpaMom, matched through the
//	                     FTXBXS lid), else on page 1; and charts
//	                     LibreOffice embedded (doc_chart.go)
//	ページNNN[コメント]  comments (ccpAtn stories, one line each) on the page
//	                     of their reference (PlcfandRef)
//	ページNNN[埋め込みK] embedded Office objects referenced on page N
//	                     (doc_embed.go)
//	文書[コメント]       comments whose reference is outside the main text
//	ヘッダー・フッター   header stories, then footer stories, section by
//	                     section (PlcfHdd, separators skipped), then the
//	                     header text boxes; lines already seen dropped
//	脚注                 footnotes, then endnotes
//
// Pages come from the explicit breaks the file holds (doc_lines.go); a
// document without any is all on ページ001. Encrypted files fail with
// MsgPassword or MsgRights before anything is parsed; Word 6/95 files and
// anything malformed fail with the corrupt-file message (the caller then
// converts the file with LibreOffice).

func init() {
	registerNative(readDocNative, ".doc")
	registerCompoundText(docEmbeddedText, nil)
}

// docEmbeddedText returns the body paragraphs and table rows of a Word
// document embedded as the storage under prefix of c.
func docEmbeddedText(c *compound, prefix string) ([]string, error) {
	r, fib, _, err := openDocReader(c, prefix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range r.lines(0, fib.ccp[storyMain], false) {
		out = append(out, l.text)
	}
	return out, nil
}

func readDocNative(ctx context.Context, path string, opt Options) (res *Result, err error) {
	defer nativeRecover(&res, &err)
	c, err := openCompound(path, opt.limits())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err = readDocCompound(ctx, c, opt.limits())
	return res, nativeFailure(err)
}

// openDocReader reads the FIB, table stream and piece table of the Word
// document whose streams are under prefix of c ("" for the file itself).
func openDocReader(c *compound, prefix string) (*docReader, *docFib, []byte, error) {
	word, err := c.stream(prefix + "WordDocument")
	if err != nil {
		return nil, nil, nil, err
	}
	fib, err := parseFib(word)
	if err != nil {
		return nil, nil, nil, err
	}
	table, err := c.stream(prefix + fib.tableName())
	if err != nil {
		return nil, nil, nil, err
	}
	text, err := readPieces(fib, table, word)
	if err != nil {
		return nil, nil, nil, err
	}
	// Huge paragraph properties are read from the Data stream one at a
	// time: the stream mostly holds pictures.
	huge := func(off int64) []byte {
		b, err := c.readAt(prefix+"Data", off, 2)
		if err != nil {
			return nil
		}
		g, err := c.readAt(prefix+"Data", off+2, int(binary.LittleEndian.Uint16(b)))
		if err != nil {
			return nil
		}
		return g
	}
	r := &docReader{
		text:     text,
		papx:     newDocPapx(fib, table, word, huge),
		chpx:     newDocChpx(fib, table, word),
		sections: docSections(fib, table, word),
		page:     1,
	}
	return r, fib, table, nil
}

func readDocCompound(ctx context.Context, c *compound, lim Limits) (*Result, error) {
	r, fib, table, err := openDocReader(c, "")
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pages := docxPages{}
	page := pages.at
	for _, l := range r.lines(0, fib.ccp[storyMain], true) {
		page(l.page).body = append(page(l.page).body, l.text)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	for _, b := range docTextBoxes(r, fib, table) {
		page(b.page).shapes = append(page(b.page).shapes, b.text)
	}
	var loose []string
	for _, cm := range docComments(r, fib, table) {
		if cm.page > 0 {
			page(cm.page).comments = append(page(cm.page).comments, cm.text)
		} else {
			loose = append(loose, cm.text)
		}
	}

	er := nativeEmbeds{ctx: ctx, lim: lim, read: c.read}
	var shapeObjects, spids map[uint32]uint32
	for _, e := range r.embeds {
		if e.shape {
			if shapeObjects == nil {
				shapeObjects = docShapeObjects(fib, table)
				spids = docAnchorShapes(fib, table)
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
		prefix := storageKey(name)
		if !c.hasStorage(prefix) {
			continue
		}
		pg := r.pageAt(e.cp)
		pl, err := er.place(c, prefix, nil, prefix, "ObjectPool/"+name, docxPageName(pg))
		if err != nil {
			return nil, err
		}
		switch {
		case pl == nil:
		case strings.HasSuffix(pl.Name, ooxmlShape):
			page(pg).shapes = append(page(pg).shapes, pl.Lines...)
		default:
			page(pg).embeds = append(page(pg).embeds, *pl)
		}
	}

	res := &Result{Log: er.log}
	pages.addPlaces(res)
	ooxmlAddPlace(res, docxDocComments, loose)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ooxmlAddPlace(res, ooxmlHeaderFooter, docHeaderFooter(r, fib, table))

	var notes []string
	for _, s := range []int{storyFtn, storyEdn} {
		from := fib.storyStart(s)
		for _, l := range r.lines(from, from+fib.ccp[s], false) {
			notes = append(notes, l.text)
		}
	}
	ooxmlAddPlace(res, docxFootnotes, notes)
	return res, nil
}

// docHeaderFooter reads the header stories of PlcfHdd: after the six
// separator stories, each section has six (even header, odd header, even
// footer, odd footer, first-page header, first-page footer). Headers come
// first, then footers, then the header text boxes; repeated lines are
// dropped.
func docHeaderFooter(r *docReader, fib *docFib, table []byte) []string {
	base := fib.storyStart(storyHdd)
	cps, _ := plc(fib.blob(table, fcPlcfHdd), 0)
	var headers, footers []string
	for i := 6; i+1 < len(cps); i++ {
		from, to := cps[i], cps[i+1]
		if from < 0 || to > fib.ccp[storyHdd] || from >= to {
			continue
		}
		for _, l := range r.lines(base+from, base+to, false) {
			switch (i - 6) % 6 {
			case 0, 1, 4:
				headers = append(headers, l.text)
			default:
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

// docObject is one text box or comment: its text and page (0: none).
type docObject struct {
	text string
	page int
}

// docAnchorShapes maps the CP of each shape anchor of the main document
// (PlcSpaMom) to the shape's id (FSPA.spid).
func docAnchorShapes(fib *docFib, table []byte) map[uint32]uint32 {
	cps, spas := plc(fib.blob(table, fcPlcSpaMom), 26)
	out := make(map[uint32]uint32, len(spas))
	for i, d := range spas {
		out[uint32(cps[i])] = binary.LittleEndian.Uint32(d)
	}
	return out
}

// docTextBoxes reads the text-box stories of PlcftxbxTxt, one object per
// box, placed through the box's shape (FTXBXS.lid = FSPA.spid of
// PlcSpaMom, whose CP is the anchor).
func docTextBoxes(r *docReader, fib *docFib, table []byte) []docObject {
	base := fib.storyStart(storyTxbx)
	cps, data := plc(fib.blob(table, fcPlcftxbxTxt), 22)
	anchorCPs, spas := plc(fib.blob(table, fcPlcSpaMom), 26)
	anchor := map[uint32]int64{}
	for i, d := range spas {
		anchor[binary.LittleEndian.Uint32(d)] = anchorCPs[i]
	}
	var out []docObject
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
		out = append(out, docObject{text: text, page: pg})
	}
	return out
}

// docComments reads the comment stories of PlcfandTxt, one object per
// comment, on the page of its reference in PlcfandRef (0 when the
// reference is missing or outside the main text).
func docComments(r *docReader, fib *docFib, table []byte) []docObject {
	base := fib.storyStart(storyAtn)
	cps, _ := plc(fib.blob(table, fcPlcfandTxt), 0)
	refs, _ := plc(fib.blob(table, fcPlcfandRef), 30)
	var out []docObject
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
		out = append(out, docObject{text: text, page: pg})
	}
	return out
}
