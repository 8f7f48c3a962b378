package extract

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"strings"
)

// Native reader of PowerPoint 97–2003 presentations (.ppt, [MS-PPT]), the
// fast path before LibreOffice. Places, as readPptxPackage gives them for
// a package (reference/extraction.md §8):
//
//	スライドNNN            the text of every shape of the slide's drawing
//	                       (OfficeArtClientTextbox: its own TextCharsAtom /
//	                       TextBytesAtom, or through an OutlineTextRefAtom
//	                       the slide's text in the SlideListWithText), one
//	                       line per paragraph; a table (a group with the
//	                       tableProperties property) one line per row, cells
//	                       joined by TAB. Date, slide-number, header, footer
//	                       and slide-image placeholders are skipped.
//	スライドNNN（非表示）  the same for a hidden slide (SlideShowSlideInfoAtom
//	                       fHidden)
//	スライドNNN_ノート     the notes page (SlideAtom.notesIdRef), same rules
//	スライドNNN[図形]      charts LibreOffice embedded (doc_chart.go)
//	スライドNNN[コメント]  comments (Comment10Container text), one line each
//	スライドNNN[埋め込みK] embedded Office objects (doc_embed.go)
//	ヘッダー・フッター     after all slides: footer placeholder text, else the
//	                       slide footer of the HeadersFooters container for
//	                       slides that show one; duplicates removed
//
// Slides come in presentation order: the SlidePersistAtoms of the slide
// list (SlideListWithText, instance 0) of the DocumentContainer, found
// through the newest UserEditAtom (Current User stream) and the persist
// directories of the edit chain; N advances for every slide, even one whose
// container cannot be read. When the whole slide list is missing, the
// DocumentContainer's text is not guessed: the file fails and LibreOffice
// gets it.

func init() {
	registerNative(readPptNative, ".ppt")
	registerCompoundText(nil, pptEmbeddedText)
}

// pptEmbeddedText returns the slide text of a presentation embedded as
// the storage under prefix of c.
func pptEmbeddedText(c *compound, prefix string) ([]string, error) {
	d, err := openPptCompound(c, prefix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range d.slideList(0) {
		if rec, ok := d.container(id, rtSlide); ok {
			out = append(out, d.readSlide(rec, id).lines...)
		}
	}
	return out, nil
}

func readPptNative(ctx context.Context, path string, opt Options) (res *Result, err error) {
	defer nativeRecover(&res, &err)
	c, err := openCompound(path, opt.limits())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err = readPptCompound(ctx, c, opt.limits())
	return res, nativeFailure(err)
}

// pptDoc is an open presentation.
type pptDoc struct {
	stream  []byte           // the PowerPoint Document stream
	persist map[uint32]int64 // persist id → offset in stream
	doc     pptRec           // the DocumentContainer
	// Texts of the SlideListWithText entries, by persist id of the slide
	// or notes page.
	texts map[uint32][]string
	// notes maps a notes id (SlideAtom.notesIdRef) to the persist id of
	// the notes page.
	notes map[uint32]uint32
	// objects maps an embedded object id (ExObjRefAtom) to the persist id
	// of its ExOleObjStg.
	objects map[uint32]uint32
	// footer is the document's slide footer text ("" when none or not
	// shown).
	footer string
}

// openPptCompound opens the presentation whose streams are under prefix
// of c ("" for the file itself).
func openPptCompound(c *compound, prefix string) (*pptDoc, error) {
	if !c.has(prefix + "PowerPoint Document") {
		return nil, Fail(MsgNotPowerPoint, errors.New("no PowerPoint Document stream"))
	}
	stream, err := c.stream(prefix + "PowerPoint Document")
	if err != nil {
		return nil, err
	}
	var current []byte
	if c.has(prefix + "Current User") {
		current, _ = c.stream(prefix + "Current User")
	}
	d, err := openPptDoc(stream, current)
	if err != nil {
		return nil, err
	}
	if d.slideList(0) == nil {
		return nil, errors.New("no slide list in the document container")
	}
	return d, nil
}

func readPptCompound(ctx context.Context, c *compound, lim Limits) (*Result, error) {
	d, err := openPptCompound(c, "")
	if err != nil {
		return nil, err
	}
	slides := d.slideList(0)
	er := nativeEmbeds{ctx: ctx, lim: lim, read: c.read}
	res := &Result{}
	var footers []string
	seen := map[string]bool{}
	addFooter := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			footers = append(footers, s)
		}
	}
	for i, id := range slides {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n := i + 1
		rec, ok := d.container(id, rtSlide)
		if !ok {
			continue
		}
		s := d.readSlide(rec, id)
		for _, f := range s.footers {
			addFooter(f)
		}
		base := pptxSlideName(n, s.hidden)
		var shapes []string
		var embeds []Place
		for _, obj := range s.objects {
			pl, err := d.embed(&er, obj, base)
			if err != nil {
				return nil, err
			}
			switch {
			case pl == nil:
			case strings.HasSuffix(pl.Name, ooxmlShape):
				shapes = append(shapes, pl.Lines...)
			default:
				embeds = append(embeds, *pl)
			}
		}
		ooxmlAddPlace(res, base, s.lines)
		if nid, ok := d.notes[s.notesID]; ok && s.notesID != 0 {
			notes, _ := d.container(nid, rtNotes)
			ns := d.readSlide(notes, nid)
			ooxmlAddPlace(res, fmt.Sprintf("スライド%03d_ノート", n), ns.lines)
		}
		ooxmlAddPlace(res, base+ooxmlShape, shapes)
		ooxmlAddPlace(res, base+ooxmlComment, s.comments)
		res.Places = append(res.Places, embeds...)
	}
	res.Log = append(res.Log, er.log...)
	ooxmlAddPlace(res, ooxmlHeaderFooter, footers)
	return res, nil
}

// openPptDoc finds the newest UserEditAtom, merges the persist directories
// of its edit chain and opens the DocumentContainer.
func openPptDoc(stream, current []byte) (*pptDoc, error) {
	d := &pptDoc{stream: stream, persist: map[uint32]int64{}, texts: map[uint32][]string{}, notes: map[uint32]uint32{}, objects: map[uint32]uint32{}}
	edit := int64(-1)
	if len(current) >= 20 {
		if r, err := pptRecordAt(current, 0); err == nil && len(r.data) >= 12 {
			edit = int64(r.u32(8))
		}
	}
	if _, err := d.userEdit(edit); err != nil {
		// A missing or stale Current User stream: take the last
		// UserEditAtom among the stream's top-level records.
		edit = -1
		for off := int64(0); off+8 <= int64(len(stream)); {
			r, err := pptRecordAt(stream, off)
			if err != nil {
				break
			}
			if r.typ == rtUserEditAtom {
				edit = off
			}
			off += 8 + int64(len(r.data))
		}
	}
	first, err := d.userEdit(edit)
	if err != nil {
		return nil, err
	}
	// Newest edit first: an id already set by a newer edit stays.
	seenEdits := map[int64]bool{}
	for off := edit; ; {
		if seenEdits[off] || len(seenEdits) > 4096 {
			break
		}
		seenEdits[off] = true
		ue, err := d.userEdit(off)
		if err != nil {
			break
		}
		if dir, err := pptRecordAt(stream, int64(ue.u32(12))); err == nil && dir.typ == rtPersistDirectoryAtom {
			d.addPersist(dir)
		}
		last := int64(ue.u32(8))
		if last == 0 || last == off {
			break
		}
		off = last
	}
	doc, ok := d.container(first.u32(16), rtDocument)
	if !ok {
		return nil, fmt.Errorf("document container (persist id %d) not found", first.u32(16))
	}
	d.doc = doc
	d.readSlideTexts()
	d.readObjects()
	d.footer = d.slideFooter(doc)
	return d, nil
}

// userEdit returns the UserEditAtom at off.
func (d *pptDoc) userEdit(off int64) (pptRec, error) {
	r, err := pptRecordAt(d.stream, off)
	if err != nil {
		return pptRec{}, err
	}
	if r.typ != rtUserEditAtom || len(r.data) < 20 {
		return pptRec{}, fmt.Errorf("no UserEditAtom at %d", off)
	}
	return r, nil
}

// addPersist adds the entries of a PersistDirectoryAtom ([MS-PPT] 2.3.4):
// a 32-bit value (persistId in bits 0–19, cPersist in bits 20–31) and
// cPersist offsets for consecutive ids.
func (d *pptDoc) addPersist(dir pptRec) {
	for off := 0; off+4 <= len(dir.data); {
		v := dir.u32(off)
		id, n := v&0xFFFFF, int(v>>20)
		off += 4
		for k := 0; k < n && off+4 <= len(dir.data); k++ {
			if _, ok := d.persist[id+uint32(k)]; !ok {
				d.persist[id+uint32(k)] = int64(dir.u32(off))
			}
			off += 4
		}
	}
}

// container returns the record of type typ that persist id points to.
func (d *pptDoc) container(id uint32, typ uint16) (pptRec, bool) {
	off, ok := d.persist[id]
	if !ok {
		return pptRec{}, false
	}
	r, err := pptRecordAt(d.stream, off)
	if err != nil || r.typ != typ {
		return pptRec{}, false
	}
	return r, true
}

// slideList returns the persist ids of the SlidePersistAtoms of the
// document's SlideListWithText of instance inst (0 slides, 2 notes), or nil
// when there is none.
func (d *pptDoc) slideList(inst uint16) []uint32 {
	var ids []uint32
	found := false
	for _, c := range d.doc.children() {
		if c.typ != rtSlideListWithText || c.inst != inst {
			continue
		}
		found = true
		for _, a := range c.children() {
			if a.typ == rtSlidePersistAtom {
				ids = append(ids, a.u32(0))
			}
		}
	}
	if found && ids == nil {
		ids = []uint32{}
	}
	return ids
}

// readSlideTexts collects, for every slide and notes page of the slide
// lists, its texts in order (one per TextHeaderAtom), the targets of
// OutlineTextRefAtom indexes; and the notes pages by notes id.
func (d *pptDoc) readSlideTexts() {
	for _, c := range d.doc.children() {
		if c.typ != rtSlideListWithText {
			continue
		}
		var id uint32
		var cur []*pptTextBuilder
		open := false
		flush := func() {
			if !open {
				return
			}
			texts := make([]string, len(cur))
			for i, b := range cur {
				texts[i] = b.String()
			}
			d.texts[id] = texts
		}
		for _, a := range c.children() {
			switch a.typ {
			case rtSlidePersistAtom:
				flush()
				id, cur, open = a.u32(0), nil, true
				if c.inst == 2 {
					d.notes[a.u32(12)] = id
				}
			case rtTextHeaderAtom:
				cur = append(cur, &pptTextBuilder{})
			default:
				if len(cur) == 0 {
					cur = append(cur, &pptTextBuilder{})
				}
				cur[len(cur)-1].add(a)
			}
		}
		flush()
	}
}

// readObjects maps the embedded objects of the ExObjList: each
// ExEmbedContainer's ExOleObjAtom holds the object id (offset 8) and the
// persist id of its storage (offset 16).
func (d *pptDoc) readObjects() {
	for _, l := range d.doc.children() {
		if l.typ != rtExObjList {
			continue
		}
		for _, e := range l.children() {
			if e.typ != rtExEmbed {
				continue
			}
			if a, ok := e.child(rtExOleObjAtom); ok && len(a.data) >= 20 {
				d.objects[a.u32(8)] = a.u32(16)
			}
		}
	}
}

// embed reads the embedded object with id obj: its ExOleObjStg, zlib
// compressed when recInstance is 1 (a 32-bit decompressed size first).
func (d *pptDoc) embed(er *nativeEmbeds, obj uint32, base string) (*Place, error) {
	pid, ok := d.objects[obj]
	if !ok {
		return nil, nil
	}
	key := fmt.Sprintf("ExOleObjStg %d", pid)
	rec, ok := d.container(pid, rtExOleObjStg)
	if !ok {
		return nil, nil
	}
	data := rec.data
	if rec.inst == 1 {
		if len(data) < 4 {
			return nil, nil
		}
		zr, err := zlib.NewReader(bytes.NewReader(data[4:]))
		if err == nil {
			data, err = readAllLimited(zr, er.lim.ZipPartBytes)
		}
		if err != nil {
			if er.seen == nil {
				er.seen = map[string]bool{}
			}
			if !er.seen[key] {
				er.seen[key] = true
				er.n++
				er.log = append(er.log, "    埋め込みを読み取れませんでした: "+key)
			}
			return nil, nil
		}
	}
	return er.place(nil, "", data, key, key, base)
}

// slideFooter returns the slide footer of the document's HeadersFooters
// container for slides (instance 3) when its atom says it is shown.
func (d *pptDoc) slideFooter(doc pptRec) string {
	for _, c := range doc.children() {
		if c.typ != rtHeadersFooters || c.inst != 3 {
			continue
		}
		return pptFooterText(c)
	}
	return ""
}

// pptFooterText reads a HeadersFootersContainer: the CString of instance
// 2 (footer) when HeadersFootersAtom.fHasFooter (0x0020 of its flags) is
// set.
func pptFooterText(c pptRec) string {
	shown := false
	text := ""
	for _, a := range c.children() {
		switch {
		case a.typ == rtHeadersFootersAtom:
			shown = a.u16(2)&0x0020 != 0
		case a.typ == rtCString && a.inst == 2:
			text = pptString(a)
		}
	}
	if !shown {
		return ""
	}
	return strings.TrimSpace(pptSpaceControls(text))
}

// pptSpaceControls turns the paragraph, line and tab characters of
// PowerPoint text into spaces.
func pptSpaceControls(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r' || r == '\n' || r == '\v' || r == '\t':
			return ' '
		case r < 0x20:
			return -1
		}
		return r
	}, s)
}
