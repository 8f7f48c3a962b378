package ppt

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/officeart"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
)

// Native reader of PowerPoint 97–2003 presentations (.ppt, [MS-PPT]), the
// fast path before LibreOffice. Places, as pptx.readPptxPackage gives them for
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
//	スライドNNN[図形]      charts LibreOffice embedded (internal/embed/odfchart.go)
//	スライドNNN[コメント]  comments (Comment10Container text), one line each
//	スライドNNN[埋め込みK] embedded Office objects (internal/embed/compound.go)
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
	extract.RegisterFormat(extract.Format{
		Name: "ppt", Extensions: []string{".ppt"}, Read: ReadNative, Native: true,
		Embedded: []extract.Embedded{{Holds: "PowerPoint Document", Read: embeddedText}},
	})
}

// embeddedText returns the slide text of a presentation embedded in
// another file (a streams.Storage).
func embeddedText(_ context.Context, container any) ([]string, error) {
	s := container.(streams.Storage)
	d, err := openPptCompound(s.File, s.Prefix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range d.slideList(0) {
		if rec, ok := d.container(id, officeart.RtSlide); ok {
			out = append(out, d.readSlide(rec, id).lines...)
		}
	}
	return out, nil
}

func ReadNative(ctx context.Context, path string, opt extract.Options) (res *extract.Result, err error) {
	defer extract.Recover(&res, &err)
	c, err := streams.Open(path, opt.ResolvedLimits())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err = ReadCompound(ctx, c, opt.ResolvedLimits())
	return res, extract.Failure(err)
}

// pptDoc is an open presentation.
type pptDoc struct {
	stream  []byte           // the PowerPoint Document stream
	persist map[uint32]int64 // persist id → offset in stream
	doc     officeart.Rec    // the DocumentContainer
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
func openPptCompound(c *streams.File, prefix string) (*pptDoc, error) {
	if !c.Has(prefix + "PowerPoint Document") {
		return nil, extract.Fail(extract.MsgNotPowerPoint, errors.New("no PowerPoint Document stream"))
	}
	stream, err := c.Stream(prefix + "PowerPoint Document")
	if err != nil {
		return nil, err
	}
	var current []byte
	if c.Has(prefix + "Current User") {
		current, _ = c.Stream(prefix + "Current User")
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

func ReadCompound(ctx context.Context, c *streams.File, lim extract.Limits) (*extract.Result, error) {
	d, err := openPptCompound(c, "")
	if err != nil {
		return nil, err
	}
	slides := d.slideList(0)
	er := embed.NativeEmbeds{Ctx: ctx, Lim: lim, Read: c.Read}
	res := &extract.Result{}
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
		rec, ok := d.container(id, officeart.RtSlide)
		if !ok {
			continue
		}
		s := d.readSlide(rec, id)
		for _, f := range s.footers {
			addFooter(f)
		}
		base := extract.SlideName(n, s.hidden)
		var shapes []string
		var embeds []extract.Place
		for _, obj := range s.objects {
			pl, err := d.embed(&er, obj, base)
			if err != nil {
				return nil, err
			}
			switch {
			case pl == nil:
			case strings.HasSuffix(pl.Name, extract.PlaceShape):
				shapes = append(shapes, pl.Lines...)
			default:
				embeds = append(embeds, *pl)
			}
		}
		extract.AddPlace(res, base, s.lines)
		if nid, ok := d.notes[s.notesID]; ok && s.notesID != 0 {
			notes, _ := d.container(nid, officeart.RtNotes)
			ns := d.readSlide(notes, nid)
			extract.AddPlace(res, extract.NotesName(n), ns.lines)
		}
		extract.AddPlace(res, base+extract.PlaceShape, shapes)
		extract.AddPlace(res, base+extract.PlaceComment, s.comments)
		res.Places = append(res.Places, embeds...)
	}
	res.Log = append(res.Log, er.Log...)
	extract.AddPlace(res, extract.PlaceHeaderFooter, footers)
	return res, nil
}

// openPptDoc finds the newest UserEditAtom, merges the persist directories
// of its edit chain and opens the DocumentContainer.
func openPptDoc(stream, current []byte) (*pptDoc, error) {
	d := &pptDoc{stream: stream, persist: map[uint32]int64{}, texts: map[uint32][]string{}, notes: map[uint32]uint32{}, objects: map[uint32]uint32{}}
	edit := int64(-1)
	if len(current) >= 20 {
		if r, err := officeart.RecordAt(current, 0); err == nil && len(r.Data) >= 12 {
			edit = int64(r.U32(8))
		}
	}
	if _, err := d.userEdit(edit); err != nil {
		// A missing or stale Current User stream: take the last
		// UserEditAtom among the stream's top-level records.
		edit = -1
		for off := int64(0); off+8 <= int64(len(stream)); {
			r, err := officeart.RecordAt(stream, off)
			if err != nil {
				break
			}
			if r.Typ == officeart.RtUserEditAtom {
				edit = off
			}
			off += 8 + int64(len(r.Data))
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
		if dir, err := officeart.RecordAt(stream, int64(ue.U32(12))); err == nil && dir.Typ == officeart.RtPersistDirectoryAtom {
			d.addPersist(dir)
		}
		last := int64(ue.U32(8))
		if last == 0 || last == off {
			break
		}
		off = last
	}
	doc, ok := d.container(first.U32(16), officeart.RtDocument)
	if !ok {
		return nil, fmt.Errorf("document container (persist id %d) not found", first.U32(16))
	}
	d.doc = doc
	d.readSlideTexts()
	d.readObjects()
	d.footer = d.slideFooter(doc)
	return d, nil
}

// userEdit returns the UserEditAtom at off.
func (d *pptDoc) userEdit(off int64) (officeart.Rec, error) {
	r, err := officeart.RecordAt(d.stream, off)
	if err != nil {
		return officeart.Rec{}, err
	}
	if r.Typ != officeart.RtUserEditAtom || len(r.Data) < 20 {
		return officeart.Rec{}, fmt.Errorf("no UserEditAtom at %d", off)
	}
	return r, nil
}

// addPersist adds the entries of a PersistDirectoryAtom ([MS-PPT] 2.3.4):
// a 32-bit value (persistId in bits 0–19, cPersist in bits 20–31) and
// cPersist offsets for consecutive ids.
func (d *pptDoc) addPersist(dir officeart.Rec) {
	for off := 0; off+4 <= len(dir.Data); {
		v := dir.U32(off)
		id, n := v&0xFFFFF, int(v>>20)
		off += 4
		for k := 0; k < n && off+4 <= len(dir.Data); k++ {
			if _, ok := d.persist[id+uint32(k)]; !ok {
				d.persist[id+uint32(k)] = int64(dir.U32(off))
			}
			off += 4
		}
	}
}

// container returns the record of type typ that persist id points to.
func (d *pptDoc) container(id uint32, typ uint16) (officeart.Rec, bool) {
	off, ok := d.persist[id]
	if !ok {
		return officeart.Rec{}, false
	}
	r, err := officeart.RecordAt(d.stream, off)
	if err != nil || r.Typ != typ {
		return officeart.Rec{}, false
	}
	return r, true
}

// slideList returns the persist ids of the SlidePersistAtoms of the
// document's SlideListWithText of instance inst (0 slides, 2 notes), or nil
// when there is none.
func (d *pptDoc) slideList(inst uint16) []uint32 {
	var ids []uint32
	found := false
	for _, c := range d.doc.Children() {
		if c.Typ != officeart.RtSlideListWithText || c.Inst != inst {
			continue
		}
		found = true
		for _, a := range c.Children() {
			if a.Typ == officeart.RtSlidePersistAtom {
				ids = append(ids, a.U32(0))
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
	for _, c := range d.doc.Children() {
		if c.Typ != officeart.RtSlideListWithText {
			continue
		}
		var id uint32
		var cur []*officeart.TextBuilder
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
		for _, a := range c.Children() {
			switch a.Typ {
			case officeart.RtSlidePersistAtom:
				flush()
				id, cur, open = a.U32(0), nil, true
				if c.Inst == 2 {
					d.notes[a.U32(12)] = id
				}
			case officeart.RtTextHeaderAtom:
				cur = append(cur, &officeart.TextBuilder{})
			default:
				if len(cur) == 0 {
					cur = append(cur, &officeart.TextBuilder{})
				}
				cur[len(cur)-1].Add(a)
			}
		}
		flush()
	}
}

// readObjects maps the embedded objects of the ExObjList: each
// ExEmbedContainer's ExOleObjAtom holds the object id (offset 8) and the
// persist id of its storage (offset 16).
func (d *pptDoc) readObjects() {
	for _, l := range d.doc.Children() {
		if l.Typ != officeart.RtExObjList {
			continue
		}
		for _, e := range l.Children() {
			if e.Typ != officeart.RtExEmbed {
				continue
			}
			if a, ok := e.Child(officeart.RtExOleObjAtom); ok && len(a.Data) >= 20 {
				d.objects[a.U32(8)] = a.U32(16)
			}
		}
	}
}

// embed reads the embedded object with id obj: its ExOleObjStg, zlib
// compressed when recInstance is 1 (a 32-bit decompressed size first).
func (d *pptDoc) embed(er *embed.NativeEmbeds, obj uint32, base string) (*extract.Place, error) {
	pid, ok := d.objects[obj]
	if !ok {
		return nil, nil
	}
	key := fmt.Sprintf("ExOleObjStg %d", pid)
	rec, ok := d.container(pid, officeart.RtExOleObjStg)
	if !ok {
		return nil, nil
	}
	data := rec.Data
	if rec.Inst == 1 {
		if len(data) < 4 {
			return nil, nil
		}
		zr, err := zlib.NewReader(bytes.NewReader(data[4:]))
		if err == nil {
			data, err = embed.ReadAllLimited(zr, er.Lim.ZipPartBytes)
		}
		if err != nil {
			if er.Seen == nil {
				er.Seen = map[string]bool{}
			}
			if !er.Seen[key] {
				er.Seen[key] = true
				er.N++
				er.Log = append(er.Log, "    埋め込みを読み取れませんでした: "+key)
			}
			return nil, nil
		}
	}
	return er.Place(nil, "", data, key, key, base)
}

// slideFooter returns the slide footer of the document's HeadersFooters
// container for slides (instance 3) when its atom says it is shown.
func (d *pptDoc) slideFooter(doc officeart.Rec) string {
	for _, c := range doc.Children() {
		if c.Typ != officeart.RtHeadersFooters || c.Inst != 3 {
			continue
		}
		return footerText(c)
	}
	return ""
}

// footerText reads a HeadersFootersContainer: the CString of instance
// 2 (footer) when HeadersFootersAtom.fHasFooter (0x0020 of its flags) is
// set.
func footerText(c officeart.Rec) string {
	shown := false
	text := ""
	for _, a := range c.Children() {
		switch {
		case a.Typ == officeart.RtHeadersFootersAtom:
			shown = a.U16(2)&0x0020 != 0
		case a.Typ == officeart.RtCString && a.Inst == 2:
			text = officeart.String(a)
		}
	}
	if !shown {
		return ""
	}
	return strings.TrimSpace(spaceControls(text))
}

// spaceControls turns the paragraph, line and tab characters of
// PowerPoint text into spaces.
func spaceControls(s string) string {
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
