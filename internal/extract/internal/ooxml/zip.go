package ooxml

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/xmlscan"
)

// ErrNotZip is the cause of a failure on a .docx/.pptx (or other OOXML)
// file whose bytes do not start with a ZIP signature. The reader's error is
// an *Error with the corrupt-file message whose Unwrap chain contains
// ErrNotZip, so a caller that can convert legacy files (package officefile,
// LibreOffice) detects it with errors.Is and the others record MsgCorrupt.
var ErrNotZip = extract.ErrNotZip

// Pkg is an opened OOXML package (a ZIP) whose parts are read under the
// limits of reference/extraction.md §13:
//   - more than Limits.ZipEntries entries fails at open;
//   - a part whose declared or actual uncompressed size exceeds
//     Limits.ZipPartBytes fails when it is opened or read;
//   - the uncompressed bytes actually read from all parts, embedded
//     packages included (they share the budget), may not exceed
//     Limits.ZipTotalBytes;
//   - at most declared size + 1 bytes of a part are read, so a part longer
//     than its header says is caught (archive/zip also rejects it);
//   - entries whose compressed data overlap (an overlap bomb) fail at open,
//     before anything is inflated (*OverlapError, a broken ZIP).
//
// Limit failures are *SizeError values; Failure() turns them into
// &Error{Msg: MsgTooLarge} with the details as Log lines only.
//
// Part names are looked up ignoring case and a leading "/", and with "\"
// read as "/" (OOXML part names are case-insensitive; some writers use
// backslashes).
type Pkg struct {
	zr     *zip.Reader
	closer io.Closer
	Parts  map[string]*zip.File
	names  []string // real part names, archive order
	Lim    extract.Limits
	Budget *Budget
	rels   map[string]map[string]Rel
}

// Budget counts the uncompressed bytes read from a file's packages.
type Budget struct {
	used, Max int64
}

// Rel is one relationship of a part: its type URI and the target part name
// resolved against the source part's folder.
type Rel struct {
	Type   string
	Target string
}

// SizeError reports a broken size limit.
type SizeError struct {
	Part  string // part name; empty for the entry-count limit
	Size  int64  // size seen (declared, or bytes read so far)
	Cap   int64  // the limit
	Kind  string // "part", "total" or "entries"
	Inner bool   // raised inside an embedded package
}

func (e *SizeError) Error() string {
	switch e.Kind {
	case "entries":
		return fmt.Sprintf("zip has %d entries, limit %d", e.Size, e.Cap)
	case "total":
		return fmt.Sprintf("zip total uncompressed bytes exceed %d at part %s", e.Cap, e.Part)
	}
	return fmt.Sprintf("zip part %s has %d uncompressed bytes, limit %d", e.Part, e.Size, e.Cap)
}

// logLine is the indexing_log.txt line describing the broken limit.
func (e *SizeError) logLine() string {
	switch e.Kind {
	case "entries":
		return fmt.Sprintf("    ZIP のエントリ数が上限を超えています: %d（上限 %d）", e.Size, e.Cap)
	case "total":
		return fmt.Sprintf("    ZIP の展開後の合計サイズが上限を超えています: %s（上限 %d バイト）", e.Part, e.Cap)
	}
	return fmt.Sprintf("    ZIP の部品が大きすぎます: %s（展開後 %d バイト以上、上限 %d バイト）", e.Part, e.Size, e.Cap)
}

// OpenPackage opens the OOXML package at path read-only. A file that does
// not start with "PK" gives an error wrapping ErrNotZip; a broken ZIP a
// plain error (Failure() makes it Corrupt); too many entries a *SizeError.
// The caller must Close the package.
func OpenPackage(path string, lim extract.Limits) (*Pkg, error) {
	lim = extract.Options{Limits: lim}.ResolvedLimits()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	p, err := NewPackage(f, st.Size(), lim, &Budget{Max: lim.ZipTotalBytes})
	if err != nil {
		f.Close()
		return nil, err
	}
	p.closer = f
	return p, nil
}

// OpenSource opens the package a reader is handed: the bytes the router
// read when it read the file whole (opt.Data, a small file), else the file
// at path (OpenPackage). From memory, the ZIP's local headers, data
// descriptors and compressed bytes cost no system call each: a small
// .docx, .xlsx or .pptx was about 80 reads of a few bytes (issue 35).
func OpenSource(path string, opt extract.Options) (*Pkg, error) {
	if opt.Data == nil {
		return OpenPackage(path, opt.ResolvedLimits())
	}
	lim := opt.ResolvedLimits()
	return NewPackage(bytes.NewReader(opt.Data), int64(len(opt.Data)), lim, &Budget{Max: lim.ZipTotalBytes})
}

// NewPackage reads the ZIP directory of r. The budget is shared with the
// enclosing package when r is an embedded package.
func NewPackage(r io.ReaderAt, size int64, lim extract.Limits, b *Budget) (*Pkg, error) {
	var sig [2]byte
	if n, _ := r.ReadAt(sig[:], 0); n < 2 || sig != [2]byte{'P', 'K'} {
		return nil, ErrNotZip
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("read zip directory: %w", err)
	}
	if len(zr.File) > lim.ZipEntries {
		return nil, &SizeError{Kind: "entries", Size: int64(len(zr.File)), Cap: int64(lim.ZipEntries)}
	}
	if err := checkOverlap(zr); err != nil {
		return nil, err
	}
	p := &Pkg{zr: zr, Parts: make(map[string]*zip.File, len(zr.File)), Lim: lim, Budget: b, rels: map[string]map[string]Rel{}}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		k := PartKey(f.Name)
		if _, dup := p.Parts[k]; dup {
			continue
		}
		p.Parts[k] = f
		p.names = append(p.names, strings.TrimPrefix(strings.ReplaceAll(f.Name, `\`, "/"), "/"))
	}
	return p, nil
}

// Close releases the file behind the package.
func (p *Pkg) Close() error {
	if p.closer == nil {
		return nil
	}
	return p.closer.Close()
}

func PartKey(name string) string {
	return strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(name, `\`, "/"), "/"))
}

// Has reports whether the package holds the part.
func (p *Pkg) Has(name string) bool {
	_, ok := p.Parts[PartKey(name)]
	return ok
}

// PartNames returns the part names (as stored, "/" separated, no leading
// slash) in archive order.
func (p *Pkg) PartNames() []string { return p.names }

// ErrNoPart is returned by open and read for a missing part.
var ErrNoPart = errors.New("extract: part not found")

// Open streams one part under the limits. Errors: ErrNoPart (wrapped) for a
// missing part, *SizeError for a broken limit (at open when the declared
// size is too large, else while reading), other errors for a broken ZIP.
func (p *Pkg) Open(name string) (io.ReadCloser, error) {
	f, ok := p.Parts[PartKey(name)]
	if !ok {
		return nil, fmt.Errorf("open %s: %w", name, ErrNoPart)
	}
	declared := int64(f.UncompressedSize64)
	if f.UncompressedSize64 > uint64(p.Lim.ZipPartBytes) {
		return nil, &SizeError{Kind: "part", Part: name, Size: declared, Cap: p.Lim.ZipPartBytes}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return &partReader{rc: rc, r: io.LimitReader(rc, declared+1), p: p, name: name, declared: declared}, nil
}

// Read returns a whole part (see open).
func (p *Pkg) Read(name string) ([]byte, error) {
	rc, err := p.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var buf bytes.Buffer
	if f := p.Parts[PartKey(name)]; f.UncompressedSize64 < 64<<20 {
		buf.Grow(int(f.UncompressedSize64))
	}
	if _, err := io.Copy(&buf, rc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// partReader enforces the part and total limits on the bytes read.
type partReader struct {
	rc       io.ReadCloser
	r        io.Reader
	p        *Pkg
	name     string
	declared int64
	n        int64
}

func (r *partReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.n += int64(n)
	r.p.Budget.used += int64(n)
	if r.n > r.declared {
		return n, fmt.Errorf("read %s: part longer than its declared size %d", r.name, r.declared)
	}
	if r.n > r.p.Lim.ZipPartBytes {
		return n, &SizeError{Kind: "part", Part: r.name, Size: r.n, Cap: r.p.Lim.ZipPartBytes}
	}
	if r.p.Budget.used > r.p.Budget.Max {
		return n, &SizeError{Kind: "total", Part: r.name, Size: r.p.Budget.used, Cap: r.p.Budget.Max}
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("read %s: %w", r.name, err)
	}
	return n, err
}

func (r *partReader) Close() error { return r.rc.Close() }

// RelsOf returns the relationships of a part by id: internal targets only
// (TargetMode="External" is ignored), resolved relative to the part's
// folder with ".." allowed and a leading "/" meaning the package root;
// percent-escapes in targets are decoded. A part without a .rels part has
// none; part "" gives the package relationships (_rels/.rels). Results are
// cached.
func (p *Pkg) RelsOf(part string) (map[string]Rel, error) {
	k := PartKey(part)
	if m, ok := p.rels[k]; ok {
		return m, nil
	}
	dir, base := path.Split(strings.TrimPrefix(part, "/"))
	relsName := dir + "_rels/" + base + ".rels"
	m := map[string]Rel{}
	if !p.Has(relsName) {
		p.rels[k] = m
		return m, nil
	}
	err := p.EachScanned(relsName, func(s *xmlscan.Scanner) error {
		if s.Kind != xmlscan.Start || string(s.Name) != "Relationship" {
			return nil
		}
		id, typ, target, mode := string(s.Attr("Id")), string(s.Attr("Type")), string(s.Attr("Target")), string(s.Attr("TargetMode"))
		if id == "" || strings.EqualFold(mode, "External") {
			return nil
		}
		if _, dup := m[id]; !dup {
			m[id] = Rel{Type: typ, Target: ResolveTarget(dir, target)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.rels[k] = m
	return m, nil
}

// EachToken streams part and calls fn for every token, with the decoder
// just past it (after a start element fn may read or skip the element's
// content; CharData is valid only during the call). Parse errors and fn's
// errors come back as "parse <part>: …".
func (p *Pkg) EachToken(part string, fn func(d *Decoder, tok xml.Token) error) error {
	rc, err := p.Open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := NewDecoder(rc, p.Lim.XMLDepth)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("parse %s: %w", part, err)
		}
		if err := fn(d, tok); err != nil {
			return fmt.Errorf("parse %s: %w", part, err)
		}
	}
}

// EachScanned streams part through xmlscan, namespaces resolved, and calls
// fn at every token (s.Kind), as EachToken does through encoding/xml but
// without its allocation per token (relationships, styles, Excel
// drawings). Errors come back as "parse <part>: …".
func (p *Pkg) EachScanned(part string, fn func(s *xmlscan.Scanner) error) error {
	rc, err := p.Open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	s, err := xmlscan.NewScanner(rc, p.Lim.XMLDepth)
	if err != nil {
		return fmt.Errorf("parse %s: %w", part, err)
	}
	s.Namespaces = true
	for {
		err := s.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("parse %s: %w", part, err)
		}
		if err := fn(s); err != nil {
			return fmt.Errorf("parse %s: %w", part, err)
		}
	}
}

// EachStart is eachToken for the start elements only.
func (p *Pkg) EachStart(part string, fn func(d *Decoder, se xml.StartElement) error) error {
	return p.EachToken(part, func(d *Decoder, tok xml.Token) error {
		if se, ok := tok.(xml.StartElement); ok {
			return fn(d, se)
		}
		return nil
	})
}

// ResolveTarget resolves a relationship target against the source part's
// folder dir ("word/" or ""). The result has no leading slash; a target
// that climbs above the package root resolves to "" (no part).
func ResolveTarget(dir, target string) string {
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	if strings.Contains(target, "%") {
		if u, err := pathUnescape(target); err == nil {
			target = u
		}
	}
	target = strings.ReplaceAll(target, `\`, "/")
	var full string
	if strings.HasPrefix(target, "/") {
		full = strings.TrimPrefix(path.Clean(target), "/")
	} else {
		full = path.Clean(dir + target)
	}
	if full == "" || full == "." || full == ".." || strings.HasPrefix(full, "../") {
		return ""
	}
	return full
}

// pathUnescape decodes %XX escapes (net/url.PathUnescape without the
// import's host rules).
func pathUnescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) || !IsHex(s[i+1]) || !IsHex(s[i+2]) {
			return "", fmt.Errorf("bad escape in %q", s)
		}
		b.WriteByte(Unhex(s[i+1])<<4 | Unhex(s[i+2]))
		i += 2
	}
	return b.String(), nil
}

func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func Unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// RelTypeIs reports whether a relationship type URI ends with "/"+suffix
// (transitional and strict URIs differ only before the last segment).
func RelTypeIs(typ, suffix string) bool {
	return strings.HasSuffix(typ, "/"+suffix)
}

// Failure turns an error of a package reader into the reader's result
// error: a *SizeError becomes MsgTooLarge with the details in Log, ErrNotZip
// and other parse errors become Corrupt (ErrNotZip stays in the chain), an
// *Error and context errors pass through.
func Failure(name string, err error) error {
	if err == nil {
		return nil
	}
	if f, ok := extract.FailureAsIs(err); ok {
		return f
	}
	var se *SizeError
	if errors.As(err, &se) {
		return &extract.Error{Msg: extract.MsgTooLarge, Cause: fmt.Errorf("%s: %w", name, err), Log: []string{se.logLine()}}
	}
	var oe *OverlapError
	if errors.As(err, &oe) {
		f := extract.Corrupt(err).(*extract.Error)
		f.Log = append(f.Log, oe.logLine())
		return f
	}
	return extract.Corrupt(err)
}
