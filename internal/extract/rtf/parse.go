package rtf

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// destination kinds of a group.
type dest uint8

const (
	destText dest = iota // read (the body, or the sink of an enclosing group)
	destSkip
	destFonts
	destHeader
	destFooter
	destNote
	destComment
	destShape
)

// group is the state a group saves and restores.
type group struct {
	dest    dest
	sink    *sink
	uc      int // fallback characters after \uN
	font    int
	intbl   bool
	first   bool // no token read in the group yet (or only \*)
	starred bool
}

// sink collects the lines of one destination instance.
type sink struct {
	kind     dest
	page     int // page of a comment or shape
	endnote  bool
	lines    []pageLine
	para     strings.Builder
	paraPage int
	rowPage  int
	cellBuf  []string
	cells    []string
}

type pageLine struct {
	page int
	text string
}

type font struct{ charset, cpg int }

type parser struct {
	ctx      context.Context
	data     []byte
	maxDepth int

	stack   []group
	g       group
	body    *sink
	raw     []byte // undecoded bytes of the current run
	u8      []byte // raw UTF-8 text of the current run
	utf8    bool   // the file is valid UTF-8: literal bytes are UTF-8
	skip    int    // fallback characters still to skip after \uN
	high    rune   // pending high surrogate
	fonts   map[int]font
	defFont int
	ansiCP  int
	curDef  int // font being defined in the font table

	page    int
	anyText bool
	headers []*sink
	footers []*sink
	notes   []*sink
	objects []*sink // comments and shapes
}

func newParser(ctx context.Context, data []byte, maxDepth int) *parser {
	p := &parser{ctx: ctx, data: data, maxDepth: maxDepth, fonts: map[int]font{}, ansiCP: 1252, page: 1}
	p.utf8 = !isASCII(data) && utf8.Valid(data)
	p.body = &sink{kind: destText}
	p.g = group{sink: p.body, uc: 1, font: -1}
	return p
}

var errDepth = errors.New("rtf: groups nested too deep")

func (p *parser) run() error {
	d := p.data
	for i := 0; i < len(d); {
		if i&0xffff == 0 {
			if err := p.ctx.Err(); err != nil {
				return err
			}
		}
		c := d[i]
		switch c {
		case '{':
			p.flush()
			if len(p.stack) >= p.maxDepth {
				return fmt.Errorf("offset %d: %w", i, errDepth)
			}
			p.stack = append(p.stack, p.g)
			p.g.first, p.g.starred = true, false
			p.skip = 0
			i++
		case '}':
			p.flush()
			p.skip = 0
			p.endGroup()
			i++
		case '\\':
			n, err := p.control(i)
			if err != nil {
				return err
			}
			i = n
		case '\r', '\n':
			i++
		case '\t':
			p.text(" ")
			i++
		default:
			p.char(c, true)
			i++
		}
	}
	p.flush()
	for len(p.stack) > 0 {
		p.endGroup()
	}
	if len(p.body.cells) > 0 || len(p.body.cellBuf) > 0 {
		// The document ends in a row without \row: its text is the
		// row's last cell (issue 33).
		p.endRow(p.body)
	}
	p.endPara(p.body)
	return nil
}

// control reads the control word or symbol at d[i] ('\\') and returns the
// index after it.
func (p *parser) control(i int) (int, error) {
	d := p.data
	i++
	if i >= len(d) {
		return i, nil
	}
	c := d[i]
	switch {
	case isLetter(c):
		j := i
		for j < len(d) && isLetter(d[j]) && j-i < 32 {
			j++
		}
		name := string(d[i:j])
		param, has := 0, false
		neg := false
		if j < len(d) && d[j] == '-' {
			neg = true
			j++
		}
		k := j
		for j < len(d) && d[j] >= '0' && d[j] <= '9' && j-k < 10 {
			param = param*10 + int(d[j]-'0')
			j++
		}
		has = j > k
		if neg {
			param = -param
		}
		if j < len(d) && d[j] == ' ' {
			j++
		}
		if name == "bin" && has {
			p.flush()
			return j + max(param, 0), nil
		}
		p.word(name, param, has)
		return j, nil
	case c == '\'':
		if i+2 < len(d) && isHex(d[i+1]) && isHex(d[i+2]) {
			p.char(unhex(d[i+1])<<4|unhex(d[i+2]), false)
			return i + 3, nil
		}
		return i + 1, nil
	case c == '*':
		p.g.starred = true
		return i + 1, nil
	case c == '\\' || c == '{' || c == '}':
		p.char(c, false)
	case c == '~':
		p.text(" ")
	case c == '_':
		p.text("-")
	case c == '-':
		p.text("")
	case c == '\r' || c == '\n':
		p.flush()
		p.endPara(p.g.sink)
	}
	p.g.first = false
	return i + 1, nil
}

// destinations whose text is read into a sink of their own, and those
// skipped whether or not they are marked \*; any other \* destination is
// skipped too.
var ownDest = map[string]dest{
	"header": destHeader, "headerl": destHeader, "headerr": destHeader, "headerf": destHeader,
	"footer": destFooter, "footerl": destFooter, "footerr": destFooter, "footerf": destFooter,
	"footnote": destNote, "annotation": destComment, "shptxt": destShape,
}

var skipDest = map[string]bool{
	"fonttbl": true, "colortbl": true, "stylesheet": true, "info": true, "pict": true, "listtable": true,
	"listoverridetable": true, "revtbl": true, "rsidtbl": true, "generator": true, "xmlnstbl": true,
	"filetbl": true, "themedata": true, "colorschememapping": true, "datastore": true, "latentstyles": true,
	"mmathPr": true, "pgdsctbl": true, "fldinst": true, "listtext": true, "pntext": true, "pntxta": true,
	"pntxtb": true, "bkmkstart": true, "bkmkend": true, "atnid": true, "atnauthor": true, "atndate": true,
	"atnref": true, "atnicn": true, "atntime": true, "atnparent": true, "sp": true, "shprslt": true,
	"nonshppict": true, "objdata": true, "objclass": true, "objname": true, "xe": true, "tc": true,
	"template": true, "userprops": true, "docvar": true, "falt": true, "panose": true, "keycode": true,
	"protusertbl": true, "wgrffmtfilter": true, "pgptbl": true, "nesttableprops": true, "ftnsep": true,
	"ftnsepc": true, "ftncn": true, "aftnsep": true, "aftnsepc": true, "aftncn": true, "fchars": true,
	"lchars": true, "pn": true, "formfield": true,
	// List definitions outside their table (issue 33): a bare {\list}
	// group's level texts are numbering templates (\'02\'00.), not text.
	"list": true, "listlevel": true, "leveltext": true, "levelnumbers": true, "listoverride": true,
	"listname": true, "listpicture": true, "lsdlockedexcept": true, "private": true, "blipuid": true,
	"passwordhash": true, "password": true, "datafield": true, "objalias": true, "objsect": true,
	"objtime": true, "rxe": true, "txe": true, "bxe": true, "pxe": true, "ixe": true,
}

// transparentStarred are \* destinations whose text is read in place.
var transparentStarred = map[string]bool{"shpinst": true, "ud": true}

func (p *parser) word(name string, param int, has bool) {
	if p.g.first {
		p.g.first = false
		if p.destination(name) {
			return
		}
	}
	if p.g.dest == destFonts {
		p.fontWord(name, param)
		return
	}
	if p.g.dest == destSkip {
		return
	}
	if name == "u" {
		p.unicode(param)
		return
	}
	if s, ok := symbols[name]; ok {
		p.text(s)
		return
	}
	p.layoutWord(name, param, has)
}

// fontWord reads a control word of the font table.
func (p *parser) fontWord(name string, param int) {
	switch name {
	case "f":
		p.curDef = param
		p.fonts[param] = p.fonts[param]
	case "fcharset":
		f := p.fonts[p.curDef]
		f.charset = param
		p.fonts[p.curDef] = f
	case "cpg":
		f := p.fonts[p.curDef]
		f.cpg = param
		p.fonts[p.curDef] = f
	}
}

// symbols are the control words that stand for a character.
var symbols = map[string]string{
	"line": " ", "tab": " ", "emspace": " ", "enspace": " ", "qmspace": " ",
	"emdash": "—", "endash": "–", "bullet": "•",
	"lquote": "‘", "rquote": "’", "ldblquote": "“", "rdblquote": "”",
}

// layoutWord reads a control word of the text: code pages, fonts,
// paragraphs, pages, tables and notes.
func (p *parser) layoutWord(name string, param int, has bool) {
	switch name {
	case "uc":
		p.g.uc = max(param, 0)
	case "ansicpg":
		if has && param > 0 {
			p.ansiCP = param
		}
	case "mac":
		p.ansiCP = 10000
	case "pc":
		p.ansiCP = 437
	case "pca":
		p.ansiCP = 850
	case "deff":
		p.defFont = param
	case "f":
		p.flush()
		p.g.font = param
	case "plain":
		p.flush()
		p.g.font = p.defFont
	case "par", "sect":
		p.flush()
		p.endPara(p.g.sink)
	case "page":
		p.flush()
		p.endPara(p.g.sink)
		if p.g.sink == p.body && p.anyText {
			p.page++
		}
	case "pagebb":
		if p.g.sink == p.body && p.body.para.Len() == 0 && p.anyText {
			p.page++
		}
	case "pard":
		p.g.intbl = false
	case "intbl":
		p.g.intbl = true
	case "itap":
		p.g.intbl = param > 0
	case "trowd":
		// A new row's definition: cells a row before it left without
		// \row are that row (issue 33).
		p.flush()
		p.endRow(p.g.sink)
	case "cell":
		p.flush()
		p.endCell(p.g.sink)
	case "nestcell":
		p.flush()
		p.endPara(p.g.sink)
	case "row":
		p.flush()
		p.endRow(p.g.sink)
	case "ftnalt":
		if p.g.sink.kind == destNote {
			p.g.sink.endnote = true
		}
	}
}

// destination handles a control word that starts a group and reports
// whether it named a destination.
func (p *parser) destination(name string) bool {
	if name == "fonttbl" {
		p.g.dest = destFonts
		return true
	}
	if k, ok := ownDest[name]; ok {
		p.flush()
		s := &sink{kind: k, page: p.page}
		switch k {
		case destHeader:
			p.headers = append(p.headers, s)
		case destFooter:
			p.footers = append(p.footers, s)
		case destNote:
			p.notes = append(p.notes, s)
		default:
			p.objects = append(p.objects, s)
		}
		p.g.dest, p.g.sink, p.g.intbl = destText, s, false
		return true
	}
	if skipDest[name] || p.g.starred && !transparentStarred[name] {
		p.g.dest = destSkip
		return true
	}
	return false
}

// endGroup restores the enclosing group, closing the paragraph of a sink
// the group owned.
func (p *parser) endGroup() {
	if len(p.stack) == 0 {
		return
	}
	inner := p.g.sink
	p.g = p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	if inner != p.g.sink {
		p.endPara(inner)
		p.endRow(inner)
	}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
