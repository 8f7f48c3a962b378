package content

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Reading a per-file folder back (the coordinator, when it publishes).
// Lines are given as they are stored, continuation lines included
// (extract.LineMaxRunes), except that a line longer than that, written by
// a version before the cap, is split here as extract.Extract splits one
// now (extract.AppendStored): whatever wrote a place TSV, what reaches the
// body index is capped (issue 36: a workspace whose per-file folder held
// a 99 MB line killed every later run while it was published).

// placeFile is one place TSV listed in .places.
type placeFile struct {
	file, place string
}

// listPlaces reads the .places of dir: its place files in document order.
func listPlaces(dir string) ([]placeFile, error) {
	m, err := workspace.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("content: read %s: %w", filepath.Join(dir, ManifestName), err)
	}
	return parseManifest(dir, m)
}

// parseManifest parses the bytes of dir's .places: its place files in
// document order (the source line is read by manifestSource).
func parseManifest(dir string, m []byte) (files []placeFile, err error) {
	sc := bufio.NewScanner(bytes.NewReader(m))
	for sc.Scan() {
		name := sc.Text()
		if name == "" || strings.HasPrefix(name, sourcePrefix) {
			continue
		}
		place, ok := PlaceName(name)
		if !ok || strings.ContainsAny(name, `/\`) {
			return nil, fmt.Errorf("content: %s: bad place file name %q", dir, name)
		}
		files = append(files, placeFile{file: name, place: place})
	}
	return files, nil
}

// Folder is a per-file folder read back by ReadFileFolder.
type Folder struct {
	// Places are the places in document order, nil when Big.
	Places []extract.Place
	// Big says that the place TSVs hold more than the bound given to
	// ReadFileFolder: they were not read (EachLine streams them).
	Big bool
	// Source is the source record (ReadSource); HasSource says whether
	// one was found.
	Source    Source
	HasSource bool
}

// ReadFileFolder reads the per-file folder dir as ReadFolderUpTo and
// ReadSource do together, reading .places once (issue 35: one open per
// file of the folder, no probe of its own). ok is false, with no error,
// when dir holds no .places (a source subfolder, not a per-file folder).
func ReadFileFolder(dir string, max int64) (f Folder, ok bool, err error) {
	m, err := workspace.ReadFile(filepath.Join(dir, ManifestName))
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.EISDIR) {
		return Folder{}, false, nil
	}
	if err != nil {
		return Folder{}, true, fmt.Errorf("content: read %s: %w", filepath.Join(dir, ManifestName), err)
	}
	files, err := parseManifest(dir, m)
	if err != nil {
		return Folder{}, true, err
	}
	var found bool
	if f.Source, f.HasSource, found = manifestSource(m); !found {
		f.Source, f.HasSource = readSourceFile(dir)
	}
	f.Places, f.Big, err = readPlaces(dir, files, max)
	return f, true, err
}

// ReadFolder reads a per-file folder back: its places in document order.
func ReadFolder(dir string) ([]extract.Place, error) {
	places, _, err := ReadFolderUpTo(dir, -1)
	return places, err
}

// ReadFolderUpTo is ReadFolder for a folder whose place TSVs hold at most
// max bytes together (max < 0: any size); a larger one is not read, and
// big reports it (EachLine reads such a folder a line at a time).
func ReadFolderUpTo(dir string, max int64) (places []extract.Place, big bool, err error) {
	files, err := listPlaces(dir)
	if err != nil {
		return nil, false, err
	}
	return readPlaces(dir, files, max)
}

// readPlaces reads the place files of dir, or reports big when they hold
// more than max bytes together (max < 0: any size).
func readPlaces(dir string, files []placeFile, max int64) (places []extract.Place, big bool, err error) {
	total := int64(0)
	for _, pf := range files {
		data, over, err := readUpTo(filepath.Join(dir, pf.file), max-total, max >= 0)
		if err != nil {
			return nil, false, err
		}
		if over {
			return nil, true, nil
		}
		total += int64(len(data))
		places = append(places, extract.Place{Name: pf.place, Lines: splitStored(decodeOwned(data))})
	}
	return places, false, nil
}

// readUpTo reads the file at path, or reports over when bounded and it is
// larger than room bytes.
func readUpTo(path string, room int64, bounded bool) (data []byte, over bool, err error) {
	f, err := workspace.OpenRead(path)
	if err != nil {
		return nil, false, fmt.Errorf("content: read %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("content: read %s: %w", path, err)
	}
	if bounded && st.Size() > room {
		return nil, true, nil
	}
	data, err = io.ReadAll(f)
	if err != nil {
		return nil, false, fmt.Errorf("content: read %s: %w", path, err)
	}
	return data, false, nil
}

// splitStored splits the lines longer than extract.LineMaxRunes.
func splitStored(lines []string) []string {
	for i, l := range lines {
		if extract.NeedsSplit(l) {
			out := append(make([]string, 0, len(lines)+1), lines[:i]...)
			for _, l := range lines[i:] {
				out = extract.AppendStored(out, l)
			}
			return out
		}
	}
	return lines
}

// EachLine calls fn with every line of the per-file folder dir, place by
// place in document order, exactly as ReadFolder would return them, while
// holding one line at a time (a place TSV can hold a file's whole text,
// up to extract.DefaultTextBudget). line is valid only during the call.
// It stops at fn's first error and returns it.
func EachLine(dir string, fn func(place, line string) error) error {
	files, err := listPlaces(dir)
	if err != nil {
		return err
	}
	for _, pf := range files {
		if err := eachLineOf(filepath.Join(dir, pf.file), pf.place, fn); err != nil {
			return err
		}
	}
	return nil
}

// eachLineOf is EachLine for one place TSV: LF ends a line, a CR before
// it is dropped, a BOM at the start is skipped and so is the empty line
// after a final LF (decodeOwned). A line longer than the read buffer (one
// an earlier version wrote whole) is split as it is read (splitter), so
// it is never held whole either.
func eachLineOf(path, place string, fn func(place, line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("content: read %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, readBuffer)
	sp := &splitter{place: place, fn: fn}
	for first := true; ; first = false {
		chunk, err := r.ReadSlice('\n')
		if first {
			chunk = bytes.TrimPrefix(chunk, bom)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if err := sp.add(chunk); err != nil {
				return err
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("content: read %s: %w", path, err)
		}
		if len(chunk) > 0 || err == nil || sp.open() {
			if err := sp.end(chunk); err != nil {
				return err
			}
		}
		if err != nil {
			return nil
		}
	}
}

// readBuffer holds any line of at most extract.LineMaxRunes runes (4
// bytes each at most), its mark and its line end.
const readBuffer = 4*extract.LineMaxRunes + 64

// splitter hands on the lines of a place TSV, splitting one longer than
// extract.LineMaxRunes runes as extract.AppendStored does while its bytes
// come in, so that it holds a few pieces' worth of it at most.
type splitter struct {
	place   string
	fn      func(place, line string) error
	buf     []byte // the line's bytes not handed on: its current piece and on
	cont    bool   // the current piece continues the line before (marked)
	started bool   // the line's leading mark has been looked for
	piece   []byte // a marked piece as handed on
}

// open reports whether a line has begun and not ended.
func (s *splitter) open() bool { return len(s.buf) > 0 || s.started }

// add takes bytes of a line that goes on, handing on each piece that is
// complete: one is, once buf holds more bytes than a piece's runes can
// take (4 each), since a cut depends only on the runes before it.
func (s *splitter) add(b []byte) error {
	s.buf = append(s.buf, b...)
	s.mark()
	for len(s.buf) > 4*extract.LineMaxRunes {
		end, next := extract.PieceEnd(unsafe.String(unsafe.SliceData(s.buf), len(s.buf)))
		if err := s.emit(s.buf[:end]); err != nil {
			return err
		}
		s.buf = s.buf[:copy(s.buf, s.buf[next:])]
		s.cont = true
	}
	return nil
}

// end takes the last bytes of a line (with its LF, if any) and hands on
// the rest of it.
func (s *splitter) end(b []byte) error {
	s.buf = append(s.buf, b...)
	s.buf = bytes.TrimSuffix(bytes.TrimSuffix(s.buf, []byte{'\n'}), []byte{'\r'})
	if !s.started && !s.cont && len(s.buf) <= extract.LineMaxRunes {
		// Nearly every line: handed on as it is (a continuation line
		// of this version keeps its mark).
		err := s.fn(s.place, unsafe.String(unsafe.SliceData(s.buf), len(s.buf)))
		s.buf = s.buf[:0]
		return err
	}
	s.mark()
	for {
		end, next := extract.PieceEnd(unsafe.String(unsafe.SliceData(s.buf), len(s.buf)))
		if err := s.emit(s.buf[:end]); err != nil {
			return err
		}
		if end == len(s.buf) {
			break
		}
		s.buf = s.buf[:copy(s.buf, s.buf[next:])]
		s.cont = true
	}
	s.buf, s.cont, s.started = s.buf[:0], false, false
	return nil
}

// mark takes a leading continuation mark off the line's text, once: the
// line continues the one before it (extract.AppendStored).
func (s *splitter) mark() {
	if s.started || len(s.buf) < len(extract.ContinuationMark) {
		return
	}
	s.started = true
	if extract.IsContinuation(unsafe.String(unsafe.SliceData(s.buf), len(s.buf))) {
		s.buf = s.buf[:copy(s.buf, s.buf[len(extract.ContinuationMark):])]
		s.cont = true
	}
}

// emit hands on one piece of text, marked when it continues a line.
func (s *splitter) emit(text []byte) error {
	if s.cont {
		s.piece = append(append(s.piece[:0], extract.ContinuationMark...), text...)
		text = s.piece
	}
	return s.fn(s.place, unsafe.String(unsafe.SliceData(text), len(text)))
}
