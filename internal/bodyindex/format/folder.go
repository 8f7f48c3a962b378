package format

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
)

// Folder is one consistent version of a folder's body index: its manifest
// and every part the manifest lists, mapped into memory. A part that cannot
// be read is kept as an error (PartErr) so that the rest stays searchable.
// Close unmaps the parts; nothing read from them may be used after.
type Folder struct {
	Dir   string
	files []FileEntry
	refs  []PartRef
	parts []*Part
	errs  []error
	maps  []*mapping
	// legacy marks a folder of an older version opened for Rebuild: its
	// parts are mapped outside the cache (unmaps) and never reused.
	legacy bool
	unmaps []func() error
}

// openRetries bounds how often OpenFolder reads the manifest again when a
// part it lists has vanished (a publish committed in between).
const openRetries = 20

// OpenFolder opens dir's body index. A folder without one gives nil, nil;
// one this build cannot read gives a *RebuildError.
func OpenFolder(dir string) (*Folder, error) { return OpenFolderSome(dir, nil, nil) }

// ErrNotMapped is the PartErr of a part that OpenFolderSome left unmapped.
var ErrNotMapped = errors.New("bodyindex: part not mapped")

// OpenFolderSome is OpenFolder that, when the manifest lists exactly the
// parts ids, maps only the parts i with pass[i] set: the summary has told
// a search which parts can match, and a rare word's folder then opens the
// few parts of its passing group instead of all of them (each is an open,
// a map and a parse). Any other manifest maps every part. A part left
// unmapped is nil, with PartErr ErrNotMapped.
func OpenFolderSome(dir string, ids [][IDSize]byte, pass []bool) (*Folder, error) {
	for try := 0; ; try++ {
		m, err := ReadManifest(dir)
		if err != nil || m == nil {
			return nil, err
		}
		sel := selectParts(m.Parts, ids, pass)
		var chosen []PartRef
		for i, r := range m.Parts {
			if sel == nil || sel[i] {
				chosen = append(chosen, r)
			}
		}
		maps, vanished := acquire(dir, m.Parts, chosen)
		if vanished {
			if try >= openRetries {
				return nil, &RebuildError{Dir: dir, Cause: fmt.Errorf("parts keep vanishing: %w", os.ErrNotExist)}
			}
			if try > 2 {
				time.Sleep(time.Millisecond * time.Duration(try))
			}
			continue
		}
		f := &Folder{Dir: dir, files: m.Files, refs: m.Parts, maps: maps}
		for i := range m.Parts {
			p, err := (*Part)(nil), ErrNotMapped
			if sel == nil || sel[i] {
				mp := maps[0]
				maps = maps[1:]
				p, err = mp.part, mp.err
				if err == nil && int64(len(mp.data)) != m.Parts[i].Size {
					p, err = nil, &MalformedError{Path: mp.path, What: fmt.Sprintf("size %d, manifest says %d", len(mp.data), m.Parts[i].Size)}
				}
			}
			var rb *RebuildError
			if errors.As(err, &rb) {
				rb.Dir = dir
			}
			f.parts = append(f.parts, p)
			f.errs = append(f.errs, err)
		}
		return f, nil
	}
}

// selectParts returns pass when refs are exactly the parts ids, else nil
// (map every part).
func selectParts(refs []PartRef, ids [][IDSize]byte, pass []bool) []bool {
	if len(ids) != len(refs) || len(pass) != len(refs) {
		return nil
	}
	for i, r := range refs {
		if r.ID != ids[i] {
			return nil
		}
	}
	return pass
}

// Close releases the parts (they may stay mapped for later searches).
func (f *Folder) Close() error {
	release(f.maps)
	f.maps = nil
	for _, u := range f.unmaps {
		u()
	}
	f.unmaps = nil
	return nil
}

// NumFiles returns the number of files in the manifest.
func (f *Folder) NumFiles() int { return len(f.files) }

// FileName returns the name of file i (files are sorted by name).
func (f *Folder) FileName(i int) string { return f.files[i].Name }

// FileInfo returns what the manifest says about file i.
func (f *Folder) FileInfo(i int) FileInfo { return f.files[i].Info() }

// NumParts returns the number of parts.
func (f *Folder) NumParts() int { return len(f.refs) }

// Part returns part i, or nil when it could not be read (PartErr says why).
func (f *Folder) Part(i int) *Part { return f.parts[i] }

// PartID returns the id of part i (its file name is derived from it).
func (f *Folder) PartID(i int) [IDSize]byte { return f.refs[i].ID }

// PartErr returns why part i could not be read, or nil.
func (f *Folder) PartErr(i int) error { return f.errs[i] }

// PartFiles returns the range of manifest files [first, last] whose lines
// part i holds.
func (f *Folder) PartFiles(i int) (first, last int) { return f.refs[i].FirstFile, f.refs[i].LastFile }

// Places reads the places of file i back from the parts: the place names
// and lines exactly as they were published. A file without text gives nil.
func (f *Folder) Places(i int) ([]extract.Place, error) {
	fe := f.files[i]
	if fe.Lines == 0 {
		return nil, nil
	}
	var places []extract.Place
	got, lastNo := 0, 0
	for pi, r := range f.refs {
		if i < r.FirstFile || i > r.LastFile {
			continue
		}
		p := f.parts[pi]
		if p == nil {
			return nil, f.errs[pi]
		}
		if err := p.parseTables(); err != nil {
			return nil, err
		}
		local := -1
		for k, n := range p.files {
			if n == fe.Name {
				local = k
				break
			}
		}
		if local < 0 {
			return nil, &MalformedError{Path: p.path, What: fmt.Sprintf("file %q missing", fe.Name)}
		}
		cache := map[int][]string{}
		for _, s := range p.segs {
			if s.File != local {
				continue
			}
			lines, err := p.SegmentLines(s, cache)
			if err != nil {
				return nil, err
			}
			n := len(places)
			switch {
			case n > 0 && places[n-1].Name == s.Place:
				// The next line, or a continuation of the last one
				// (extract.LineMaxRunes), which keeps its number.
				want := lastNo + 1
				if extract.IsContinuation(lines[0]) {
					want = lastNo
				}
				if s.LineNo != want {
					return nil, &MalformedError{Path: p.path, What: fmt.Sprintf("place %q of %q continues at line %d", s.Place, fe.Name, s.LineNo)}
				}
				places[n-1].Lines = append(places[n-1].Lines, lines...)
			case s.LineNo != 1:
				return nil, &MalformedError{Path: p.path, What: fmt.Sprintf("place %q of %q starts at line %d", s.Place, fe.Name, s.LineNo)}
			default:
				places = append(places, extract.Place{Name: s.Place, Lines: lines})
			}
			lastNo = s.LineNo + s.Lines - 1
			got += len(lines)
		}
	}
	if got != fe.Lines {
		return nil, &MalformedError{Path: filepath.Join(f.Dir, ManifestName), What: fmt.Sprintf("file %q has %d lines in its parts, manifest says %d", fe.Name, got, fe.Lines)}
	}
	return places, nil
}

// SegmentLines returns the original lines of a segment, decoding each
// block once per cache.
func (p *Part) SegmentLines(s Segment, cache map[int][]string) ([]string, error) {
	out := make([]string, 0, s.Lines)
	for line := s.FirstLine; line < s.FirstLine+s.Lines; {
		b := p.blockHolding(line)
		lines, ok := cache[b]
		if !ok {
			text, err := p.Original(b)
			if err != nil {
				return nil, err
			}
			lines = strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
			cache[b] = lines
		}
		first, end := p.BlockLines(b)
		for ; line < end && line < s.FirstLine+s.Lines; line++ {
			out = append(out, lines[line-first])
		}
	}
	return out, nil
}

// blockHolding returns the block holding line i.
func (p *Part) blockHolding(i int) int {
	lo, hi := 0, len(p.blocks)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if int(p.blocks[m].firstLine) <= i {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// ReadFile returns the places of one file of dir's body index as they were
// published (name compared exactly), for previews and tests.
func ReadFile(dir, name string) ([]extract.Place, error) {
	f, err := OpenFolder(dir)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("bodyindex: %s: no body index", dir)
	}
	defer f.Close()
	for i := range f.files {
		if f.files[i].Name == name {
			return f.Places(i)
		}
	}
	return nil, fmt.Errorf("bodyindex: %s: no file %q in the body index", dir, name)
}

// Entries returns the rows of the folder's file table, in table order
// (read-only: Publish merges them with fresh files).
func (f *Folder) Entries() []FileEntry { return f.files }

// Refs returns the rows of the folder's part table, in search order
// (read-only: Publish keeps the parts of unchanged chunks).
func (f *Folder) Refs() []PartRef { return f.refs }

// Legacy reports a folder of an older version opened by OpenLegacy: its
// parts are never reused as they are.
func (f *Folder) Legacy() bool { return f.legacy }
