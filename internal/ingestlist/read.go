package ingestlist

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Line is one accepted data line, duplicates included.
type Line struct {
	// Index is the line's 0-based position among all data lines after the
	// header (malformed, rejected and blank lines counted too), which is
	// what the journal's 回 record counts.
	Index int
	// Row is the position in Rows of the line's path: the row of its
	// key, which the last line of the key gives. A position, not a copy
	// of the row, so that the lines cost a list no second copy of its
	// rows (issue 21); what the journal asks of a line is its key.
	Row int
}

// List is an ingest list as read.
type List struct {
	// Folders are the folder lines with a valid (or unknown, empty) name,
	// in file order.
	Folders []Folder
	// Rows holds one row per key (case-insensitive relative path): the last
	// line for that key wins, kept at the position of the key's first line.
	Rows []Row
	// Lines holds every accepted data line in file order, duplicates
	// included (the journal asks which files have a line after position N).
	Lines []Line
	// DataLines is the number of data lines after the header, counting
	// every terminated line (accepted or not).
	DataLines int
	// Rejected counts lines skipped for an index name or path that fails the
	// name rules (seed: Rejected; the indexer logs the count in yellow).
	Rejected int
	// Ignored counts other non-blank lines skipped as malformed: a wrong
	// column count (a torn write), a number column that is not a
	// non-negative decimal number, a line before the header that is neither
	// a folder line nor the header, a line longer than maxLineBytes.
	Ignored int
	// Skips names the lines passed over, with their line numbers and
	// reasons (Rejected and Ignored lines, a last line cut by a crash), in
	// file order: the first maxSkips of them; MoreSkips counts the rest.
	Skips     []Skip
	MoreSkips int
	// Lost are the rows of a list in another form than the seed's whose
	// 相対パス lost characters to the encoding (`?` for an emoji, 𠮷,
	// Hangul or é when Excel saved it as Shift_JIS; lost.go): the path
	// holds `?` and is valid otherwise. They are not in Rows until the
	// indexer finds their files (Resolve).
	Lost []LostRow
	// LegacyFolders are names from folder lines that fail
	// workspace.TestStoredIndexName but pass workspace.TestPlainFolderName
	// (names of an earlier version ending in . or a space). Their lines are
	// skipped; the names serve only the check for removed roots.
	LegacyFolders []string
	// LegacyLines are those folder lines with their paths, for writing
	// them back while their index is kept.
	LegacyLines []Folder
	// Encoding is the form the list was in: Native, or one a person's tool
	// left (the indexer says so in the log; the next rewrite is Native).
	Encoding Encoding

	keys map[string]int // Key → position in Rows
}

// Lookup returns the row for relPath, compared case-insensitively.
func (l *List) Lookup(relPath string) (Row, bool) {
	if i, ok := l.Find(relPath); ok {
		return l.Rows[i], true
	}
	return Row{}, false
}

// Find returns the position in Rows of the row for relPath, compared
// case-insensitively.
func (l *List) Find(relPath string) (int, bool) {
	key := workspace.FoldKey(relPath)
	if l.keys != nil {
		i, ok := l.keys[key]
		return i, ok
	}
	for i := len(l.Rows) - 1; i >= 0; i-- {
		if l.Rows[i].Key() == key {
			return i, true
		}
	}
	return 0, false
}

// maxLineBytes bounds one line. Real lines are a few hundred bytes; a longer
// one is garbage and is skipped without being held in memory.
const maxLineBytes = 1 << 20

// ReadFile reads the ingest list at path. A missing file is an empty list.
// Only I/O errors are returned; malformed content is skipped and counted.
func ReadFile(path string) (*List, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &List{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ingestlist: open %s: %w", path, err)
	}
	defer f.Close()
	l, err := read(f)
	var fe *FormatError
	if errors.As(err, &fe) {
		fe.Path = path
		return nil, fe
	}
	if err != nil {
		return nil, fmt.Errorf("ingestlist: read %s: %w", path, err)
	}
	return l, nil
}

// Read reads an ingest list (format: package comment). It returns an error
// when r fails, and a *FormatError for a list in another form than the
// seed's (re-saved by Excel or an editor) that it cannot read in full; a
// list in the seed's form never fails on content.
func Read(r io.Reader) (*List, error) {
	l, err := read(r)
	var fe *FormatError
	if errors.As(err, &fe) {
		return nil, fe
	}
	if err != nil {
		return nil, fmt.Errorf("ingestlist: read: %w", err)
	}
	return l, nil
}

func read(r io.Reader) (*List, error) {
	br, enc, err := decode(bufio.NewReaderSize(r, sniffBytes))
	if err != nil {
		return nil, err
	}
	// foreign: not the seed's form, so the file was saved again by a
	// person's tool, not cut by our appender: every line must read, a last
	// line without its LF is whole, and Excel's quoting, padding and
	// trimming of empty cells are undone.
	rd := &listReader{l: &List{keys: map[string]int{}, Encoding: enc}, enc: enc, foreign: enc != Native, versionCol: -1}
	lr := lineReader{br: br}
	for first := true; ; first = false {
		line, ok, tooLong, cut, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok && !(cut && rd.foreign) {
			// End of input; an unterminated last line is dropped.
			switch {
			case cut && tooLong:
				rd.l.skip(rd.lineNo+1, reasonTooLong)
			case cut:
				rd.l.skip(rd.lineNo+1, reasonCut)
			}
			break
		}
		rd.lineNo++
		for first && strings.HasPrefix(line, bom) {
			line = line[len(bom):]
		}
		if err := rd.line(line, tooLong); err != nil {
			return nil, err
		}
	}
	l := rd.l
	if rd.foreign && !rd.inData && (len(l.Folders) > 0 || len(l.LegacyFolders) > 0 || l.Rejected > 0) {
		return nil, &FormatError{Line: rd.lineNo + 1, Reason: reasonNoHeader}
	}
	return l, nil
}

// listReader is read's state: the list so far and where the lines are.
type listReader struct {
	l          *List
	enc        Encoding
	foreign    bool
	inData     bool // past the header
	ncols      int  // columns of a data line (the header's)
	versionCol int
	f          [rowColumns]string
	lineNo     int
}

// ignore passes over a line the seed's form may hold (a torn or stray
// line, counted as Ignored and named in Skips); in a foreign file it fails
// the read.
func (rd *listReader) ignore(reason string) error {
	if rd.foreign {
		return &FormatError{Line: rd.lineNo, Reason: reason}
	}
	rd.l.Ignored++
	rd.l.skip(rd.lineNo, reason)
	return nil
}

// reject passes over a line whose index name or path breaks the name
// rules (counted as Rejected and named in Skips).
func (rd *listReader) reject(reason string) {
	rd.l.Rejected++
	rd.l.skip(rd.lineNo, reason)
}

// line reads one line of the file.
func (rd *listReader) line(line string, tooLong bool) error {
	if rd.inData {
		rd.l.DataLines++
	}
	if tooLong {
		return rd.ignore(reasonTooLong)
	}
	if rd.foreign && rd.enc != UTF8NoBOM && strings.ContainsRune(line, '\uFFFD') {
		return &FormatError{Line: rd.lineNo, Reason: fmt.Sprintf(reasonEncoding, rd.enc)}
	}
	if strings.TrimSpace(line) == "" {
		return nil
	}
	if rd.foreign {
		// Excel pads rows with empty cells to the widest row, or
		// leaves a row's trailing empty cells out: drop them all and
		// add back what the header needs (fitColumns).
		line = strings.TrimRight(line, "\t")
	}
	n := split(line, &rd.f)
	if rd.foreign {
		excelFields(&rd.f, n)
	}
	if !rd.inData {
		return rd.headLine(n)
	}
	return rd.dataLine(n)
}

// headLine reads a line before the header: a folder line or the header.
func (rd *listReader) headLine(n int) error {
	f := &rd.f
	fn := n
	for fn > 3 && fn <= rowColumns && f[fn-1] == "" {
		fn-- // a folder line padded to the header's width
	}
	switch {
	case f[0] == folderLabel && (fn == 2 || fn == 3):
		if !rd.l.addFolder(f[1], f[2], fn) {
			rd.reject(reasonFolder)
		}
	case n >= legacyColumns && isHeader(f):
		rd.inData, rd.ncols = true, n
		if n >= rowColumns && f[rowColumns-1] == colVersion {
			rd.versionCol = rowColumns - 1
		}
	case rd.foreign:
		return rd.ignore(reasonNoHeader)
	default:
		return rd.ignore(reasonStray)
	}
	return nil
}

// dataLine reads a row line after the header; the last line of a path
// gives its row.
func (rd *listReader) dataLine(n int) error {
	l := rd.l
	if rd.foreign {
		n = fitColumns(&rd.f, n, rd.ncols)
	}
	if n != rd.ncols {
		return rd.ignore(fmt.Sprintf(reasonColumns, n, rd.ncols))
	}
	lost := false
	if !ValidRelPath(rd.f[0]) {
		if lost = rd.foreign && lostChars(rd.f[0]); !lost {
			rd.reject(rejectReason(rd.f[0]))
			return nil
		}
	}
	row, why := parseRow(&rd.f, rd.versionCol, rd.foreign)
	if why != "" {
		return rd.ignore(why)
	}
	if lost {
		l.Lost = append(l.Lost, LostRow{Row: row, Line: rd.lineNo, Index: l.DataLines - 1})
		return nil
	}
	key := row.Key()
	i, ok := l.keys[key]
	if ok {
		l.Rows[i] = row
	} else {
		i = len(l.Rows)
		l.keys[key] = i
		l.Rows = append(l.Rows, row)
	}
	l.Lines = append(l.Lines, Line{Index: l.DataLines - 1, Row: i})
	return nil
}

// excelFields undoes Excel's quoting of the n fields in f: a field that
// starts and ends with " and has only doubled quotes inside becomes its
// inner text.
func excelFields(f *[rowColumns]string, n int) {
	for i := 0; i < n && i < len(f); i++ {
		s := f[i]
		if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
			continue
		}
		inner := s[1 : len(s)-1]
		if strings.Count(inner, `"`) != 2*strings.Count(inner, `""`) {
			continue
		}
		f[i] = strings.ReplaceAll(inner, `""`, `"`)
	}
}

// fitColumns makes a data line of a foreign list, its trailing empty
// cells dropped, as wide as the header again, as long as the row still
// reaches 状態. It returns the new field count.
func fitColumns(f *[rowColumns]string, n, ncols int) int {
	if n < ncols && n >= 4 {
		for i := n; i < ncols && i < len(f); i++ {
			f[i] = ""
		}
		return ncols
	}
	return n
}

// addFolder takes a folder line; false for a name that is rejected.
func (l *List) addFolder(path, name string, n int) bool {
	switch {
	case n == 2:
		l.Folders = append(l.Folders, Folder{Path: path})
	case workspace.TestStoredIndexName(name):
		l.Folders = append(l.Folders, Folder{Path: path, Name: name})
	case workspace.TestPlainFolderName(name):
		l.LegacyFolders = append(l.LegacyFolders, name)
		l.LegacyLines = append(l.LegacyLines, Folder{Path: path, Name: name})
	default:
		return false
	}
	return true
}

// isHeader reports whether the first seven fields are the header's.
func isHeader(f *[rowColumns]string) bool {
	for i := 0; i < legacyColumns; i++ {
		if f[i] != header[i] {
			return false
		}
	}
	return true
}

// split cuts line at TABs into f and returns the number of fields; fields
// past len(f) are counted, not stored.
func split(line string, f *[rowColumns]string) int {
	n := 0
	for {
		i := strings.IndexByte(line, '\t')
		if i < 0 {
			if n < len(f) {
				f[n] = line
			}
			n++
			for j := n; j < len(f); j++ {
				f[j] = ""
			}
			return n
		}
		if n < len(f) {
			f[n] = line[:i]
		}
		n++
		line = line[i+1:]
	}
}

// parseRow converts the fields of a data line whose RelPath is valid. It
// fails, giving the reason, when a number column holds anything but decimal
// digits or too big a number, or (strict: a foreign list) when 更新日時 or
// 取り込み日時 is not a date-time normalizeTime reads. Date-times are
// returned in the seed's form.
func parseRow(f *[rowColumns]string, versionCol int, strict bool) (Row, string) {
	row := Row{
		RelPath:    f[0],
		Updated:    f[1],
		State:      State(f[3]),
		IngestedAt: f[5],
		Error:      ShownError(f[6]),
	}
	if t, minutes, ok := normalizeTime(f[1]); ok && t != "" {
		row.Updated, row.UpdatedMinutes = t, minutes
	} else if strict {
		return Row{}, fmt.Sprintf(reasonTime, header[1], f[1])
	}
	if t, _, ok := normalizeTime(f[5]); ok {
		row.IngestedAt = t
	} else if strict {
		return Row{}, fmt.Sprintf(reasonTime, header[5], f[5])
	}
	size, ok := parseCount(f[2], 63)
	if !ok {
		return Row{}, fmt.Sprintf(reasonNumber, header[2], f[2])
	}
	row.Size = size
	if f[4] != "" {
		n, ok := parseCount(f[4], strconv.IntSize-1)
		if !ok {
			return Row{}, fmt.Sprintf(reasonNumber, header[4], f[4])
		}
		row.TSVCount, row.HasTSVCount = int(n), true
	}
	if versionCol >= 0 && f[versionCol] != "" {
		n, ok := parseCount(f[versionCol], strconv.IntSize-1)
		if !ok {
			return Row{}, fmt.Sprintf(reasonNumber, colVersion, f[versionCol])
		}
		row.Version = int(n)
	}
	return row, ""
}

// parseCount parses a non-empty string of ASCII digits that fits in bits
// bits.
func parseCount(s string, bits int) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, bits+1)
	return n, err == nil
}
