package pdfobj

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// readXrefs reads the cross-reference sections from startxref.
func (f *File) readXrefs() error {
	tail := f.read(max(0, f.size-1024), 1024)
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return errors.New("pdfobj: no startxref")
	}
	p := &parser{b: tail, pos: i + len("startxref")}
	p.skip()
	off, err := strconv.ParseInt(string(p.word()), 10, 64)
	if err != nil {
		return fmt.Errorf("pdfobj: startxref: %w", err)
	}
	seen := map[int64]bool{}
	for n := 0; n < maxXrefs; n++ {
		if seen[off] {
			break
		}
		seen[off] = true
		d, err := f.readXrefAt(off)
		if err != nil && f.header > 0 {
			d, err = f.readXrefAt(off + f.header)
		}
		if err != nil {
			return err
		}
		if f.trailer == nil {
			f.trailer = d
		}
		if x, ok := Int(d["XRefStm"]); ok && !seen[x] {
			seen[x] = true
			f.readXrefAt(x)
		}
		prev, ok := Int(d["Prev"])
		if !ok {
			break
		}
		off = prev
	}
	return nil
}

// readXrefAt reads one section (a table and its trailer, or a stream)
// and returns its trailer dictionary; entries already known (from a later
// section) are kept.
func (f *File) readXrefAt(off int64) (Dict, error) {
	b := f.read(off, maxObjectBytes)
	p := &parser{b: b}
	if p.keyword("xref") {
		return f.xrefTable(p)
	}
	obj, err := f.parseAt(off, -1)
	if err != nil {
		return nil, err
	}
	s, ok := obj.(Stream)
	if !ok || s.Dict["Type"] != Name("XRef") {
		return nil, errors.New("pdfobj: no cross-reference section at startxref")
	}
	return s.Dict, f.xrefStream(s)
}

func (f *File) xrefTable(p *parser) (Dict, error) {
	for {
		p.skip()
		if p.keyword("trailer") {
			o, err := p.object(0)
			if err != nil {
				return nil, err
			}
			d, ok := o.(Dict)
			if !ok {
				return nil, errSyntax
			}
			return d, nil
		}
		first, err1 := strconv.Atoi(string(p.word()))
		p.skip()
		count, err2 := strconv.Atoi(string(p.word()))
		if err1 != nil || err2 != nil || first < 0 || count < 0 || first+count > maxObjects {
			return nil, fmt.Errorf("pdfobj: bad cross-reference subsection at %d", p.pos)
		}
		for i := range count {
			p.skip()
			o, err1 := strconv.ParseInt(string(p.word()), 10, 64)
			p.skip()
			_, err2 := strconv.Atoi(string(p.word()))
			p.skip()
			kind := string(p.word())
			if err1 != nil || err2 != nil || kind != "n" && kind != "f" {
				return nil, fmt.Errorf("pdfobj: bad cross-reference entry at %d", p.pos)
			}
			if _, known := f.xref[first+i]; !known {
				if kind == "n" {
					f.xref[first+i] = entry{offset: o}
				} else {
					f.xref[first+i] = entry{offset: -1}
				}
			}
		}
	}
}

func (f *File) xrefStream(s Stream) error {
	data, err := f.StreamData(s)
	if err != nil {
		return err
	}
	w, ok := s.Dict["W"].(Array)
	if !ok || len(w) != 3 {
		return errors.New("pdfobj: xref stream without /W")
	}
	var ws [3]int
	for i := range ws {
		v, ok := Int(w[i])
		if !ok || v < 0 || v > 8 {
			return errors.New("pdfobj: bad xref stream /W")
		}
		ws[i] = int(v)
	}
	rowLen := ws[0] + ws[1] + ws[2]
	if rowLen == 0 {
		return errors.New("pdfobj: empty xref stream /W")
	}
	size, _ := Int(s.Dict["Size"])
	index := Array{int64(0), size}
	if a, ok := s.Dict["Index"].(Array); ok {
		index = a
	}
	row := 0
	for i := 0; i+1 < len(index); i += 2 {
		first, ok1 := Int(index[i])
		count, ok2 := Int(index[i+1])
		if !ok1 || !ok2 || first < 0 || count < 0 || first+count > maxObjects {
			return errors.New("pdfobj: bad xref stream /Index")
		}
		for k := int64(0); k < count; k++ {
			if (row+1)*rowLen > len(data) {
				return nil
			}
			r := data[row*rowLen:]
			row++
			field := func(j, at int) int64 {
				var v int64
				for _, c := range r[at : at+ws[j]] {
					v = v<<8 | int64(c)
				}
				return v
			}
			typ := int64(1)
			if ws[0] > 0 {
				typ = field(0, 0)
			}
			a, b := field(1, ws[0]), field(2, ws[0]+ws[1])
			num := int(first + k)
			if _, known := f.xref[num]; known {
				continue
			}
			switch typ {
			case 0:
				f.xref[num] = entry{offset: -1}
			case 1:
				f.xref[num] = entry{offset: a}
			case 2:
				if a < maxObjects && b < maxObjects {
					f.xref[num] = entry{stm: int(a), idx: int(b), inStream: true}
				}
			}
		}
	}
	return nil
}

// scan finds the objects of a file whose cross-reference sections cannot
// be read: every `N G obj` at the start of a line, the last of a number
// winning; the trailer is the last `trailer` dictionary, else a catalog.
func (f *File) scan() error {
	if f.scanned {
		return nil
	}
	f.scanned = true
	const chunk = 1 << 20
	var root Object
	var trailer Dict
	for off := int64(0); off < f.size; off += chunk - 64 {
		b := f.read(off, chunk)
		for i := 0; i < len(b); {
			j := bytes.Index(b[i:], []byte("obj"))
			if j < 0 {
				break
			}
			at := i + j
			i = at + 3
			if at+3 < len(b) && !isSpace(b[at+3]) && !isDelim(b[at+3]) {
				continue
			}
			// Back over `N G `.
			k := at - 1
			for k >= 0 && isSpace(b[k]) {
				k--
			}
			ge := k + 1
			for k >= 0 && b[k] >= '0' && b[k] <= '9' {
				k--
			}
			gs := k + 1
			for k >= 0 && isSpace(b[k]) {
				k--
			}
			ne := k + 1
			for k >= 0 && b[k] >= '0' && b[k] <= '9' {
				k--
			}
			ns := k + 1
			if gs == ge || ns == ne || ne == gs || (k >= 0 && !isSpace(b[k]) && !isDelim(b[k])) {
				continue
			}
			num, err := strconv.Atoi(string(b[ns:ne]))
			if err != nil || num <= 0 || num >= maxObjects {
				continue
			}
			if len(f.xref) >= maxObjects {
				return errors.New("pdfobj: too many objects")
			}
			f.xref[num] = entry{offset: off + int64(ns)}
		}
		if t := bytes.LastIndex(b, []byte("trailer")); t >= 0 {
			p := &parser{b: b, pos: t + len("trailer")}
			if o, err := p.object(0); err == nil {
				if d, ok := o.(Dict); ok && d["Root"] != nil {
					trailer = d
				}
			}
		}
		if off+chunk >= f.size {
			break
		}
	}
	if f.trailer == nil {
		f.trailer = trailer
	}
	if f.trailer == nil {
		// A file with an xref stream and no trailer: the last XRef
		// stream's dictionary, else any catalog.
		for num := range f.xref {
			o := f.Resolve(Ref{num, 0})
			switch v := o.(type) {
			case Stream:
				if v.Dict["Type"] == Name("XRef") && v.Dict["Root"] != nil {
					f.trailer = v.Dict
				}
			case Dict:
				if v["Type"] == Name("Catalog") && root == nil {
					root = Ref{num, 0}
				}
			}
			if f.trailer != nil {
				break
			}
		}
		if f.trailer == nil && root != nil {
			f.trailer = Dict{"Root": root}
		}
	}
	if f.trailer == nil {
		return errors.New("pdfobj: no catalog found")
	}
	return nil
}
