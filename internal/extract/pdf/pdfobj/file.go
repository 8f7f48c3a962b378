package pdfobj

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// More limits (doc.go).
const (
	maxObjects  = 1 << 21 // objects one file may number
	maxRefChain = 16      // references followed from one to the next
	maxXrefs    = 64      // cross-reference sections followed by /Prev
	maxPages    = 1 << 20 // pages of the page tree
	// maxParses bounds the objects parsed for one file (object stream
	// members count one each): reading fonts touches a few per page.
	maxParses = 1 << 20
	// headerWindow is where the header may sit (readers accept it in
	// the first 1,024 bytes).
	headerWindow = 1024
)

// entry is a cross-reference entry: an object at a file offset, or the
// idx-th object of object stream stm.
type entry struct {
	offset   int64
	stm, idx int
	inStream bool
}

// File is an open PDF's objects.
type File struct {
	r       io.ReaderAt
	size    int64
	header  int64 // offset of %PDF-
	xref    map[int]entry
	trailer Dict
	cache   map[int]Object
	stms    map[int]*objStm // object streams read, by number
	budget  int
	scanned bool
	fonts   map[Ref]Font // fonts read (PageFonts)
	// crypt decrypts an encrypted file's streams and strings (nil: the
	// file is not encrypted, or needs a password, crypt.go).
	crypt  *crypt
	blocks map[int64][]byte // blocks of the file read (read)
	order  []int64          // their numbers, oldest first
}

// Open reads a PDF's cross-reference sections (or, when they cannot be
// read, scans the file for its objects).
func Open(r io.ReaderAt, size int64) (*File, error) {
	f := &File{r: r, size: size, xref: map[int]entry{}, cache: map[int]Object{}, stms: map[int]*objStm{}, budget: maxParses}
	head := make([]byte, min(size, headerWindow))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("pdfobj: read header: %w", err)
	}
	i := bytes.Index(head, []byte("%PDF-"))
	if i < 0 {
		return nil, errors.New("pdfobj: no %PDF- header")
	}
	f.header = int64(i)
	if err := f.readXrefs(); err != nil || f.trailer["Root"] == nil {
		f.xref, f.trailer = map[int]entry{}, nil
		if err := f.scan(); err != nil {
			return nil, err
		}
	}
	if f.trailer["Encrypt"] != nil {
		// Objects parsed so far (the /Encrypt dictionary among them)
		// are read again, their strings decrypted, except that one.
		c, err := f.newCrypt()
		f.cache, f.stms = map[int]Object{}, map[int]*objStm{}
		if ref, ok := f.trailer["Encrypt"].(Ref); ok && err == nil {
			f.cache[ref.Num] = f.Resolve(ref)
		}
		f.crypt = c
	}
	return f, nil
}

// Trailer returns the trailer dictionary (for a scanned file, the last
// trailer found, or a dictionary naming the catalog found).
func (f *File) Trailer() Dict { return f.trailer }

// The file is read in blocks of blockSize bytes, the last maxBlocks kept:
// objects lie near each other, and a read per object would be a system
// call and an allocation each.
const (
	blockSize = 64 << 10
	maxBlocks = 16
)

// read returns up to n bytes at off (a slice of a block the caller must
// not change, when the bytes lie in one).
func (f *File) read(off int64, n int) []byte {
	if off < 0 || off >= f.size {
		return nil
	}
	n = int(min(int64(n), f.size-off))
	first, last := off/blockSize, (off+int64(n)-1)/blockSize
	if first == last {
		b := f.block(first)
		at := int(off - first*blockSize)
		if at >= len(b) {
			return nil // a short read (a file cut while it is read)
		}
		return b[at:min(at+n, len(b))]
	}
	if last-first == 1 {
		b1, b2 := f.block(first), f.block(last)
		at := int(off - first*blockSize)
		if at > len(b1) || len(b1) < blockSize {
			return b1[min(at, len(b1)):]
		}
		out := append(make([]byte, 0, n), b1[at:]...)
		return append(out, b2[:min(n-len(out), len(b2))]...)
	}
	b := make([]byte, n)
	k, _ := f.r.ReadAt(b, off)
	return b[:k]
}

// block returns block i of the file, read on first use.
func (f *File) block(i int64) []byte {
	if b, ok := f.blocks[i]; ok {
		return b
	}
	if len(f.order) >= maxBlocks {
		delete(f.blocks, f.order[0])
		f.order = f.order[1:]
	}
	b := make([]byte, min(blockSize, f.size-i*blockSize))
	k, _ := f.r.ReadAt(b, i*blockSize)
	b = b[:k]
	if f.blocks == nil {
		f.blocks = map[int64][]byte{}
	}
	f.blocks[i] = b
	f.order = append(f.order, i)
	return b
}

// parseAt parses the object `num gen obj … endobj` at off (num < 0: any
// number), with its stream when it has one.
func (f *File) parseAt(off int64, want int) (Object, error) {
	var num, gen int
	// Most objects are a few hundred bytes: a small window first, a
	// larger one when the object runs past it.
	var p *parser
	var o Object
	var err error
	for _, window := range []int{4 << 10, 256 << 10, maxObjectBytes} {
		b := f.read(off, window)
		p = &parser{b: b}
		n, g, ok := p.objHeader()
		num, gen = n, g
		if !ok || want >= 0 && n != want {
			return nil, fmt.Errorf("pdfobj: no object %d at offset %d", want, off)
		}
		o, err = p.object(0)
		// An object ending at the window's edge may go on past it (a
		// number cut, the `stream` keyword beyond).
		whole := err == nil && p.pos+32 <= len(b) || err != nil && !errors.Is(err, errSyntax)
		if whole || len(b) < window {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	if f.crypt != nil {
		o = f.crypt.decryptStrings(o, num, gen, 0)
	}
	d, ok := o.(Dict)
	if !ok || !p.keyword("stream") {
		return o, nil
	}
	// The data starts after the EOL that follows `stream`.
	if p.pos < len(p.b) && p.b[p.pos] == '\r' {
		p.pos++
	}
	if p.pos < len(p.b) && p.b[p.pos] == '\n' {
		p.pos++
	}
	return Stream{Dict: d, offset: off + int64(p.pos), num: num, gen: gen}, nil
}

// objHeader reads `num gen obj` and returns num and gen.
func (p *parser) objHeader() (int, int, bool) {
	p.skip()
	n, err := strconv.Atoi(string(p.word()))
	if err != nil {
		return 0, 0, false
	}
	p.skip()
	g, err := strconv.Atoi(string(p.word()))
	if err != nil {
		return 0, 0, false
	}
	return n, g, p.keyword("obj")
}

// Resolve returns the object o refers to (o itself when it is no
// reference); a missing or broken object is null.
func (f *File) Resolve(o Object) Object {
	for range maxRefChain {
		r, ok := o.(Ref)
		if !ok {
			return o
		}
		o = f.object(r.Num)
	}
	return nil
}

func (f *File) object(num int) Object {
	if o, ok := f.cache[num]; ok {
		return o
	}
	if f.budget <= 0 {
		return nil
	}
	f.budget--
	e, ok := f.xref[num]
	var o Object
	switch {
	case !ok:
	case e.inStream:
		o = f.streamMember(e.stm, e.idx, num)
	case e.offset >= 0:
		var err error
		o, err = f.parseAt(e.offset, num)
		if err != nil && f.header > 0 {
			o, err = f.parseAt(e.offset+f.header, num)
		}
		if err != nil && !f.scanned {
			// Offsets that do not match: find the objects by a scan.
			f.cache[num] = nil
			if f.scan() == nil {
				if e2, ok := f.xref[num]; ok && !e2.inStream && e2.offset != e.offset {
					o, _ = f.parseAt(e2.offset, num)
				}
			}
		}
	}
	if len(f.cache) < maxCached {
		f.cache[num] = o
	}
	return o
}

// maxCached bounds the objects kept parsed (past it, an object is parsed
// again when asked for again).
const maxCached = 1 << 16

// objStm is a decoded object stream: its data and where each member
// starts (from First), the members parsed only when asked for.
type objStm struct {
	data  []byte
	first int
	offs  map[int]int
}

// streamMember returns object num, the idx-th of object stream stm.
func (f *File) streamMember(stm, idx, num int) Object {
	st, ok := f.stms[stm]
	if !ok {
		f.stms[stm] = nil // a stream inside itself reads as empty
		st = f.readObjStm(stm)
		f.stms[stm] = st
	}
	if st == nil {
		return nil
	}
	off, ok := st.offs[num]
	if !ok {
		return nil
	}
	q := &parser{b: st.data[st.first:], pos: off}
	o, err := q.object(0)
	if err != nil {
		return nil
	}
	return o
}

func (f *File) readObjStm(stm int) *objStm {
	s, ok := f.Resolve(Ref{stm, 0}).(Stream)
	if !ok || s.Dict["Type"] != Name("ObjStm") {
		return nil
	}
	n, ok1 := Int(s.Dict["N"])
	first, ok2 := Int(s.Dict["First"])
	if !ok1 || !ok2 || n < 0 || n > maxObjects || first < 0 {
		return nil
	}
	data, err := f.StreamData(s)
	if err != nil || first > int64(len(data)) {
		return nil
	}
	p := &parser{b: data[:first]}
	st := &objStm{data: data, first: int(first), offs: map[int]int{}}
	for range n {
		p.skip()
		num, err1 := strconv.Atoi(string(p.word()))
		p.skip()
		off, err2 := strconv.Atoi(string(p.word()))
		if err1 != nil || err2 != nil || off < 0 || int64(off) >= int64(len(data))-first {
			break
		}
		st.offs[num] = off
	}
	return st
}
