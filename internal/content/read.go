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
	"unsafe"

	"github.com/fumibako/fumibako/internal/extract"
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
	m, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("content: read %s: %w", filepath.Join(dir, ManifestName), err)
	}
	var out []placeFile
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
		out = append(out, placeFile{file: name, place: place})
	}
	return out, nil
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
	f, err := os.Open(path)
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
// after a final LF (decodeOwned).
func eachLineOf(path, place string, fn func(place, line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("content: read %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 4*extract.LineMaxRunes+64)
	var long []byte // a line longer than r's buffer
	first := true
	var pieces []string
	for {
		chunk, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("content: read %s: %w", path, err)
		}
		line := chunk
		if long != nil {
			line = append(long, chunk...)
		}
		if first {
			line, first = bytes.TrimPrefix(line, bom), false
		}
		if len(line) > 0 || err == nil {
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
			if ferr := emit(place, unsafe.String(unsafe.SliceData(line), len(line)), &pieces, fn); ferr != nil {
				return ferr
			}
		}
		long = nil
		if err != nil {
			return nil
		}
	}
}

// emit hands one stored line to fn, split when an earlier version wrote
// it longer than the cap.
func emit(place, line string, pieces *[]string, fn func(place, line string) error) error {
	if !extract.NeedsSplit(line) {
		return fn(place, line)
	}
	*pieces = extract.AppendStored((*pieces)[:0], strings.Clone(line))
	for _, p := range *pieces {
		if err := fn(place, p); err != nil {
			return err
		}
	}
	return nil
}
