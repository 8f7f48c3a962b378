package content

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The batch file (issue 35): the places of small files, appended by the
// coordinator, instead of one per-file folder each. A worker returns the
// places of a file whose place TSVs would hold at most InlineMax bytes on
// its pipe (worker.Response.Places, in AppendPlaces' encoding, the places
// part of a record); the coordinator appends them as one
// record to its run's batch file, fsyncs the file once per group commit
// (before the rows that claim the records), and hands a folder's records
// to its publish (package bodyindex). A larger file keeps its per-file
// folder. Once every folder a batch file names is published and the
// journal says so, the file is deleted: by the run at its end, else by
// the next start, which first publishes from it the folders the journal
// shows unpublished.
//
// Location: work/store/batch/<run>.places, <run> being 20 decimal digits
// of the run's start (Unix nanoseconds, UTC) and `-<pid>`, so that the
// names sort in run order: a later run's record for a file overrides an
// earlier one's.
//
// Format (little-endian; no fsync per append: a kill keeps every record
// written, a power loss may cut the tail, which the group commit's fsync
// bounds):
//
//	header   8 bytes  "FBBATCH1"
//	record   repeated:
//	  length  uint32  bytes of body (at most BatchRecordMax)
//	  crc     uint32  CRC-32C (Castagnoli) of body
//	  body    length bytes:
//	    kind    1 byte   'P' the places of one file, 'D' drop a folder
//	    path    uvarint n, n bytes UTF-8: 'P' the file's relative path
//	            (`<index>\<dir>\<file>`, the ingest list's key), 'D' the
//	            folder (`<index>\<dir>`, relative to store/content)
//	    'P' only:
//	    mtime   int64   crawled modification time, Unix nanoseconds (0: unknown)
//	    size    int64   crawled size in bytes
//	    version uvarint the extract version the places were made with; 0
//	                    when the record does not stand for the file's 済
//	                    row (its OCR pages wait or are kept apart)
//	    ingested uvarint n, n bytes: the row's 取り込み日時 as the ingest
//	                    list writes it (empty with version 0)
//	    places  uvarint count, then per place:
//	              name   uvarint n, n bytes (the place as the body index
//	                     stores it: FileName's round trip, NormalizePlaces)
//	              lines  uvarint count, then per line uvarint n, n bytes
//	                     (no CR or LF in a line)
//
// Example (one record, 'P' for `営業\見積.txt`, one place `本文` with the
// line `合計`): "FBBATCH1", length, crc, 'P', 14, "営業\見積.txt",
// mtime, size, 4, 19, "2026/12/05 10:00:00", 1, 6, "本文", 1, 6, "合計".
//
// A record that stands for its row lets the next start take a file the
// kill found finished but not yet committed (its 始 durable, its row not:
// the group commit paces rows) as 済 instead of interrupted: the record
// is checksummed and names the crawled time and size the row must have,
// so it proves the result the lost row would have said.
//
// A 'D' record (a folder set aside, issue 36) drops the records before it
// of files in that folder: their 失敗 rows follow it, so a kill never
// publishes the text of a file the list calls failed.
//
// Reading (ReadBatch) takes records up to the first one that is cut short
// (a torn tail), whose checksum does not match, whose length is over
// BatchRecordMax, or whose body does not parse (an invalid path, a count
// past the body's end, a varint longer than it needs, a line holding CR or
// LF): that record and everything after it
// are ignored, and Tail says why. A file without the header holds no
// records (Tail says so). Nothing in a batch file is trusted beyond its
// checksum: every count is checked against the bytes left before use.

// BatchMagic starts every batch file (format version 1).
const BatchMagic = "FBBATCH1"

// BatchExt is the extension of batch files under workspace.BatchDir.
const BatchExt = ".places"

// InlineMax is the most place-TSV bytes (BOM, lines, CRLF) of a file that
// goes through the batch file; a larger file keeps its per-file folder and
// is streamed at its publish (bodyindex's streamText, 4 MiB).
const InlineMax = 4 << 20

// BatchRecordMax bounds one record's body: InlineMax of text with room for
// the names and counts. A reader refuses a larger length before
// allocating.
const BatchRecordMax = InlineMax + 1<<20

// Record kinds.
const (
	batchPlaces = 'P'
	batchDrop   = 'D'
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// BatchRecord is one record of a batch file: the places of one file, or
// (Drop) the end of the earlier records of a folder.
type BatchRecord struct {
	Drop bool
	// Path is the file's relative path, or the folder for Drop.
	Path    string
	ModTime int64 // Unix nanoseconds, 0 unknown
	Size    int64
	// Version and Ingested are the extract version and 取り込み日時 of
	// the file's 済 row; Version 0 when the record does not stand for it.
	Version  int
	Ingested string
	Places   []extract.Place
	// Encoded, when set, is Places in AppendPlaces' encoding, as a
	// worker sent them and ParsePlaces checked them: the record takes
	// these bytes instead of encoding Places a second time.
	Encoded []byte
}

// AppendBatchRecord appends rec's bytes (length, checksum, body) to b.
func AppendBatchRecord(b []byte, rec BatchRecord) []byte {
	start := len(b)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0)
	body := len(b)
	if rec.Drop {
		b = append(b, batchDrop)
		b = appendString(b, rec.Path)
	} else {
		b = append(b, batchPlaces)
		b = appendString(b, rec.Path)
		b = binary.LittleEndian.AppendUint64(b, uint64(rec.ModTime))
		b = binary.LittleEndian.AppendUint64(b, uint64(rec.Size))
		b = binary.AppendUvarint(b, uint64(rec.Version))
		b = appendString(b, rec.Ingested)
		if rec.Encoded != nil {
			b = append(b, rec.Encoded...)
		} else {
			b = AppendPlaces(b, rec.Places)
		}
	}
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-body))
	binary.LittleEndian.PutUint32(b[start+4:], crc32.Checksum(b[body:], castagnoli))
	return b
}

// AppendPlaces appends the places part of a 'P' record (count, then each
// name and its lines) to b: also what a worker sends on its pipe for an
// inline result (worker.Response.Places, ParsePlaces).
func AppendPlaces(b []byte, places []extract.Place) []byte {
	b = binary.AppendUvarint(b, uint64(len(places)))
	for _, p := range places {
		b = appendString(b, p.Name)
		b = binary.AppendUvarint(b, uint64(len(p.Lines)))
		for _, l := range p.Lines {
			b = appendString(b, l)
		}
	}
	return b
}

// ParsePlaces reads what AppendPlaces wrote, with the checks of a
// record's body.
func ParsePlaces(b []byte) ([]extract.Place, error) {
	return parsePlaces(&batchBody{b: b})
}

// ParsePlacesOwned is ParsePlaces for bytes the caller hands over: the
// places' names and lines are cut from b itself, not from a copy, so b
// must never change afterwards. A worker's inline answer is such bytes
// (each frame is read into a buffer of its own): copying every frame was
// a quarter of the bytes a small-file build allocated (issue 35).
func ParsePlacesOwned(b []byte) ([]extract.Place, error) {
	return parsePlaces(&batchBody{b: b, owned: true})
}

func parsePlaces(d *batchBody) ([]extract.Place, error) {
	places := d.places()
	if d.err == nil && len(d.b) != 0 {
		d.err = errBatchRecord
	}
	return places, d.err
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Tail says how a batch file ended: Clean at the end of a record, or why
// reading stopped (the bytes from Offset on are ignored).
type Tail struct {
	Clean  bool
	Offset int64
	Reason string // "torn", "checksum", "length", "record", "header"
}

// BatchEntry is a record read back with where its bytes lie in the file
// (Offset of its length field, Len bytes in all), so that a caller can
// keep the offset instead of the record and read it again (ReadBatchAt).
type BatchEntry struct {
	BatchRecord
	Offset, Len int64
}

// ReadBatch reads the records of a batch file from r, stopping at the
// first bad or torn one (the format comment above).
func ReadBatch(r io.Reader) ([]BatchEntry, Tail) {
	br := bufio.NewReaderSize(r, 64<<10)
	var magic [len(BatchMagic)]byte
	if _, err := io.ReadFull(br, magic[:]); err != nil || string(magic[:]) != BatchMagic {
		return nil, Tail{Reason: "header"}
	}
	off := int64(len(BatchMagic))
	var out []BatchEntry
	var head [8]byte
	for {
		n, err := io.ReadFull(br, head[:])
		if err == io.EOF && n == 0 {
			return out, Tail{Clean: true, Offset: off}
		}
		if err != nil {
			return out, Tail{Offset: off, Reason: "torn"}
		}
		size := binary.LittleEndian.Uint32(head[:4])
		if size > BatchRecordMax || size == 0 {
			return out, Tail{Offset: off, Reason: "length"}
		}
		body := make([]byte, size)
		if _, err := io.ReadFull(br, body); err != nil {
			return out, Tail{Offset: off, Reason: "torn"}
		}
		if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(head[4:]) {
			return out, Tail{Offset: off, Reason: "checksum"}
		}
		rec, err := parseBatchBody(body)
		if err != nil {
			return out, Tail{Offset: off, Reason: "record"}
		}
		out = append(out, BatchEntry{BatchRecord: rec, Offset: off, Len: int64(len(head)) + int64(size)})
		off += int64(len(head)) + int64(size)
	}
}

// ReadBatchAt reads back the record of n bytes at off in f (a BatchEntry's
// Offset and Len).
func ReadBatchAt(f io.ReaderAt, off, n int64) (BatchRecord, error) {
	if n < 8 || n > 8+BatchRecordMax {
		return BatchRecord{}, fmt.Errorf("content: batch record at %d: bad length %d", off, n)
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return BatchRecord{}, fmt.Errorf("content: read batch record at %d: %w", off, err)
	}
	body := b[8:]
	if int64(binary.LittleEndian.Uint32(b[:4])) != n-8 || crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[4:8]) {
		return BatchRecord{}, fmt.Errorf("content: batch record at %d: bad checksum", off)
	}
	rec, err := parseBatchBody(body)
	if err != nil {
		return BatchRecord{}, fmt.Errorf("content: batch record at %d: %w", off, err)
	}
	return rec, nil
}

var errBatchRecord = errors.New("content: bad batch record")

// batchBody reads a record's body, every count checked against the bytes
// left before anything is allocated.
type batchBody struct {
	b   []byte
	err error
	// text, when set, holds the bytes from b on as one string (places):
	// the places' names and lines are cut from it, one allocation for
	// the whole record instead of one per line (issue 35).
	text string
	// owned: b is the reader's to keep (ParsePlacesOwned), so text is b
	// itself rather than a copy.
	owned bool
}

func (d *batchBody) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	// Only the shortest encoding, the one the writer gives: a record
	// reads one way and writes back to the same bytes.
	if n <= 0 || n != uvarintLen(v) {
		d.err = errBatchRecord
		return 0
	}
	d.b = d.b[n:]
	return v
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

func (d *batchBody) int64() int64 {
	if d.err != nil || len(d.b) < 8 {
		d.err = errBatchRecord
		return 0
	}
	v := int64(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *batchBody) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errBatchRecord
		return ""
	}
	// Bytes as the extractor gave them, valid UTF-8 or not, as a place
	// TSV keeps them.
	var s string
	if d.text != "" {
		at := len(d.text) - len(d.b)
		s = d.text[at : at+int(n)]
	} else {
		s = string(d.b[:n])
	}
	d.b = d.b[n:]
	return s
}

// count reads a count of items each taking at least one byte.
func (d *batchBody) count() int {
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)) {
		d.err = errBatchRecord
	}
	return int(n)
}

// places reads a count of places, each a name and its lines.
func (d *batchBody) places() []extract.Place {
	var out []extract.Place
	if d.owned && len(d.b) > 0 {
		d.text = unsafe.String(&d.b[0], len(d.b))
	} else {
		d.text = string(d.b)
	}
	defer func() { d.text = "" }()
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		p := extract.Place{Name: d.string()}
		lines := d.count()
		if d.err == nil && lines > 0 {
			p.Lines = make([]string, 0, lines)
		}
		for j := 0; j < lines && d.err == nil; j++ {
			l := d.string()
			if strings.IndexByte(l, '\n') >= 0 || strings.IndexByte(l, '\r') >= 0 {
				d.err = errBatchRecord
			}
			p.Lines = append(p.Lines, l)
		}
		out = append(out, p)
	}
	return out
}

func parseBatchBody(b []byte) (BatchRecord, error) {
	d := &batchBody{b: b[1:]}
	var rec BatchRecord
	switch b[0] {
	case batchDrop:
		rec.Drop = true
		rec.Path = d.string()
		if d.err == nil && !validBatchPath(rec.Path, 1) {
			d.err = errBatchRecord
		}
	case batchPlaces:
		rec.Path = d.string()
		if d.err == nil && !validBatchPath(rec.Path, 2) {
			d.err = errBatchRecord
		}
		rec.ModTime, rec.Size = d.int64(), d.int64()
		if v := d.uvarint(); v > math.MaxInt32 {
			d.err = errBatchRecord
		} else {
			rec.Version = int(v)
		}
		rec.Ingested = d.string()
		if d.err == nil && ((rec.Version == 0) != (rec.Ingested == "") || strings.ContainsAny(rec.Ingested, "\t\r\n")) {
			d.err = errBatchRecord
		}
		rec.Places = d.places()
	default:
		return rec, errBatchRecord
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errBatchRecord
	}
	return rec, d.err
}

// validBatchPath checks a record's path as the journal checks its paths:
// at least min `\`-separated segments, each a stored name
// (workspace.TestStoredIndexName), so a record can never name a place
// outside store/content.
func validBatchPath(p string, min int) bool {
	segs := strings.Split(p, `\`)
	if len(segs) < min {
		return false
	}
	for _, s := range segs {
		if !workspace.TestStoredIndexName(s) || strings.ContainsRune(s, '/') {
			return false
		}
	}
	return true
}

// NormalizePlaces returns the places of a file as its per-file folder
// would read back (WriteStage, then ReadFileFolder): lines cleaned of CR
// and LF, trailing empty lines removed, places without text left out,
// each name through its TSV file name and back (FileName, PlaceName); and
// the bytes those TSVs would hold. It fails as WriteStage does on a name
// that cannot be stored or two places of one name.
func NormalizePlaces(places []extract.Place) (out []extract.Place, tsvBytes int64, err error) {
	seen := map[string]bool{}
	for _, p := range places {
		lines := trimTrailingEmpty(cleanLines(p.Lines))
		if len(lines) == 0 {
			continue
		}
		name, place, err := storedPlace(p.Name)
		if err != nil {
			return nil, 0, err
		}
		if seen[strings.ToLower(name)] {
			return nil, 0, fmt.Errorf("content: two places named %q in one file", p.Name)
		}
		seen[strings.ToLower(name)] = true
		tsvBytes += int64(len(bom))
		for _, l := range lines {
			tsvBytes += int64(len(l)) + 2
		}
		out = append(out, extract.Place{Name: place, Lines: lines})
	}
	return out, tsvBytes, nil
}

// storedPlace returns the TSV file name of a place (FileName) and the place
// that file name reads back as (PlaceName), remembered for the names that
// have both: a share's files use few place names (本文, Sheet1, ページ001…),
// and the round trip tries a dozen regular expressions (2 % of a worker's
// CPU on small text files, issue 35). At most storedNamesMax names are
// remembered, so that a share of many sheet names does not grow a worker.
func storedPlace(place string) (file, back string, err error) {
	if v, ok := storedNames.Load(place); ok {
		n := v.(storedName)
		return n.file, n.place, nil
	}
	file, err = FileName(place)
	if err != nil {
		return "", "", err
	}
	back, ok := PlaceName(file)
	if !ok {
		return "", "", fmt.Errorf("content: place %q has no readable file name %q", place, file)
	}
	if storedNamesLen.Add(1) <= storedNamesMax {
		// Copies: a reader's names may be cut from memory the worker
		// reuses for the next file (extract.Options.ReadBuffer).
		storedNames.Store(strings.Clone(place), storedName{file: strings.Clone(file), place: strings.Clone(back)})
	}
	return file, back, nil
}

type storedName struct{ file, place string }

const storedNamesMax = 4096

var (
	storedNames    sync.Map // place name → storedName
	storedNamesLen atomic.Int64
)
