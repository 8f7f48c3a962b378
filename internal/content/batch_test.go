package content_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// batchRecords are the records the batch format tests write.
var batchRecords = []content.BatchRecord{
	{Path: `営業\見積\A社.txt`, ModTime: 1764614400000000000, Size: 18432, Version: 3, Ingested: "2026/12/05 10:00:00",
		Places: []extract.Place{{Name: "本文", Lines: []string{"見積書", "", "合計\t1,000"}}}},
	{Path: `営業\見積\B社.xlsx`, ModTime: 1, Size: 2,
		Places: []extract.Place{{Name: "Sheet1", Lines: []string{"a\tb"}}, {Name: "売上[図形]", Lines: []string{"A1\t図"}}}},
	{Path: `営業\空.txt`},
	{Drop: true, Path: `営業\見積`},
	{Path: `営業\見積\A社.txt`, ModTime: 3, Size: 4, Version: 1, Ingested: "2026/12/05 10:00:01",
		Places: []extract.Place{{Name: "本文", Lines: []string{"二度目"}}}},
}

// writeBatch writes recs to a new batch file in dir and returns its path
// and bytes.
func writeBatch(t *testing.T, dir, name string, recs []content.BatchRecord) (string, []byte) {
	t.Helper()
	path := filepath.Join(dir, name)
	w, err := content.CreateBatch(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if _, _, err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

func recordsOf(es []content.BatchEntry) []content.BatchRecord {
	var out []content.BatchRecord
	for _, e := range es {
		out = append(out, e.BatchRecord)
	}
	return out
}

// TestReadBatch: every record up to the first torn, damaged or unreadable
// one, and the tail says why reading stopped.
func TestReadBatch(t *testing.T) {
	_, data := writeBatch(t, t.TempDir(), "1.places", batchRecords)
	all, tail := content.ReadBatch(bytes.NewReader(data))
	if !tail.Clean || tail.Offset != int64(len(data)) || !reflect.DeepEqual(recordsOf(all), normalized(batchRecords)) {
		t.Fatalf("ReadBatch(whole) = %+v, %+v", recordsOf(all), tail)
	}
	second := all[1].Offset // where record 2 starts
	flip := func(at int64) []byte {
		b := bytes.Clone(data)
		b[at] ^= 0x40
		return b
	}
	huge := bytes.Clone(data)
	binary.LittleEndian.PutUint32(huge[second:], content.BatchRecordMax+1)
	badKind := bytes.Clone(data)
	badKind[second+8] = 'Z'
	// A record whose checksum matches but whose body does not parse.
	bad := append(data[:second:second], content.AppendBatchRecord(nil, content.BatchRecord{Path: `..\x`})...)
	// A version without its 取り込み日時, and one holding a tab.
	noDate := append(data[:second:second], content.AppendBatchRecord(nil, content.BatchRecord{Path: `営業\x.txt`, Version: 1})...)
	tabDate := append(data[:second:second], content.AppendBatchRecord(nil, content.BatchRecord{Path: `営業\x.txt`, Version: 1, Ingested: "a\tb"})...)
	tests := []struct {
		name   string
		data   []byte
		n      int
		reason string
	}{
		{"torn in the length", data[:second+3], 1, "torn"},
		{"torn in the body", data[:all[1].Offset+all[1].Len-1], 1, "torn"},
		{"torn last record", data[:len(data)-1], len(all) - 1, "torn"},
		{"bad checksum", flip(second + 12), 1, "checksum"},
		{"length over the limit", huge, 1, "length"},
		{"unknown kind", badKind, 1, "checksum"},
		{"path outside the content tree", bad, 1, "record"},
		{"version without its date", noDate, 1, "record"},
		{"date holding a tab", tabDate, 1, "record"},
		{"no header", data[4:], 0, "header"},
		{"header only", data[:len(content.BatchMagic)], 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, tail := content.ReadBatch(bytes.NewReader(tt.data))
			if len(got) != tt.n || tail.Reason != tt.reason || tail.Clean != (tt.reason == "") {
				t.Fatalf("ReadBatch = %d records, %+v; want %d, reason %q", len(got), tail, tt.n, tt.reason)
			}
			if !reflect.DeepEqual(recordsOf(got), recordsOf(all[:tt.n])) {
				t.Fatalf("records %+v, want %+v", recordsOf(got), recordsOf(all[:tt.n]))
			}
		})
	}
}

// normalized is recs as read back: no places is nil places.
func normalized(recs []content.BatchRecord) []content.BatchRecord {
	out := append([]content.BatchRecord(nil), recs...)
	for i := range out {
		if len(out[i].Places) == 0 {
			out[i].Places = nil
		}
	}
	return out
}

// TestReadBatchAt reads each record back from its offset, and refuses
// damaged bytes.
func TestReadBatchAt(t *testing.T) {
	path, data := writeBatch(t, t.TempDir(), "1.places", batchRecords)
	es, _ := content.ReadBatch(bytes.NewReader(data))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, e := range es {
		got, err := content.ReadBatchAt(f, e.Offset, e.Len)
		if err != nil || !reflect.DeepEqual(got, e.BatchRecord) {
			t.Errorf("ReadBatchAt(record %d) = %+v, %v; want %+v", i, got, err, e.BatchRecord)
		}
	}
	b := bytes.Clone(data)
	b[es[0].Offset+10] ^= 1
	if _, err := content.ReadBatchAt(bytes.NewReader(b), es[0].Offset, es[0].Len); err == nil {
		t.Errorf("ReadBatchAt(damaged) gave no error")
	}
	if _, err := content.ReadBatchAt(bytes.NewReader(data), es[0].Offset, es[0].Len+1); err == nil {
		t.Errorf("ReadBatchAt(wrong length) gave no error")
	}
}

// TestLatestRecords: later files and later records win, a Drop removes
// the earlier records of its folder only, and a torn tail is reported.
func TestLatestRecords(t *testing.T) {
	dir := t.TempDir()
	older, _ := writeBatch(t, dir, "00000000000000000001-9.places", batchRecords[:3])
	newer, data := writeBatch(t, dir, "00000000000000000002-9.places", []content.BatchRecord{
		{Path: `営業\空.txt`, Places: []extract.Place{{Name: "本文", Lines: []string{"新しい"}}}},
		batchRecords[3],
		batchRecords[4],
	})
	os.WriteFile(newer, append(data, 1, 2, 3), 0o644) // a torn tail
	paths, err := content.ListBatches(dir)
	if err != nil || !reflect.DeepEqual(paths, []string{older, newer}) {
		t.Fatalf("ListBatches = %q, %v", paths, err)
	}
	got, torn, err := content.LatestRecords(paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(torn) != 1 {
		t.Errorf("torn = %q, want the newer file", torn)
	}
	want := map[string][]string{
		`営業\見積\a社.txt`: {"二度目"}, // B社 dropped, A社 written again after the drop
		`営業\空.txt`:     {"新しい"},
	}
	if len(got) != len(want) {
		t.Fatalf("LatestRecords = %+v", got)
	}
	for path, lines := range want {
		r, ok := got[workspace.FoldKey(path)]
		if !ok || !reflect.DeepEqual(r.Places[0].Lines, lines) {
			t.Errorf("record %s = %+v, want lines %q", path, r, lines)
		}
	}
}

// TestNormalizePlaces: a file's places given inline are what its per-file
// folder reads back, and its size is the place TSVs' bytes.
func TestNormalizePlaces(t *testing.T) {
	tests := []struct {
		name   string
		places []extract.Place
	}{
		{"text", []extract.Place{{Name: "本文", Lines: []string{"一行目", "", "三行目", "  ", ""}}}},
		{"sheets", []extract.Place{{Name: "Sheet1", Lines: []string{"a\tb"}}, {Name: "空", Lines: []string{"", " "}}, {Name: "2024_上期", Lines: []string{"x"}}, {Name: "CON", Lines: []string{"y"}}}},
		{"pages and shapes", []extract.Place{{Name: "ページ003（目安）", Lines: []string{"p"}}, {Name: "スライド002（非表示）[図形]", Lines: []string{"s\r\nt", "u\rv"}}}},
		{"no text", []extract.Place{{Name: "本文", Lines: []string{""}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, size, err := content.NormalizePlaces(tt.places)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "f.txt")
			if _, err := content.WriteFolder(dir, tt.places); err != nil {
				t.Fatal(err)
			}
			want, err := content.ReadFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("NormalizePlaces = %q, per-file folder reads %q", got, want)
			}
			// Again, with the names remembered from the first time.
			if again, againSize, err := content.NormalizePlaces(tt.places); err != nil || againSize != size || !reflect.DeepEqual(again, got) {
				t.Errorf("NormalizePlaces again = %q, %d, %v; first %q, %d", again, againSize, err, got, size)
			}
			ents, _ := os.ReadDir(dir)
			var tsv int64
			for _, e := range ents {
				if e.Name() != content.ManifestName {
					info, _ := e.Info()
					tsv += info.Size()
				}
			}
			if size != tsv {
				t.Errorf("size %d, TSVs hold %d bytes", size, tsv)
			}
		})
	}
	for range 2 {
		if _, _, err := content.NormalizePlaces([]extract.Place{{Name: "a", Lines: []string{"x"}}, {Name: "A", Lines: []string{"y"}}}); err == nil {
			t.Errorf("two places of one name: no error")
		}
	}
}

// TestParsePlacesOwned: the places cut from a frame handed over are those
// ParsePlaces reads, and their names and lines lie in the frame itself.
func TestParsePlacesOwned(t *testing.T) {
	for _, rec := range batchRecords {
		if rec.Drop {
			continue
		}
		t.Run(rec.Path, func(t *testing.T) {
			frame := content.AppendPlaces(nil, rec.Places)
			want, err := content.ParsePlaces(frame)
			if err != nil {
				t.Fatal(err)
			}
			got, err := content.ParsePlacesOwned(frame)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("ParsePlacesOwned = %q, %v; want %q", got, err, want)
			}
			start := uintptr(unsafe.Pointer(unsafe.SliceData(frame)))
			for _, p := range got {
				for _, s := range append([]string{p.Name}, p.Lines...) {
					if at := uintptr(unsafe.Pointer(unsafe.StringData(s))); s != "" && (at < start || at >= start+uintptr(len(frame))) {
						t.Errorf("%q was copied out of the frame", s)
					}
				}
			}
		})
	}
}

// TestEncodedRecord: a record given its places already encoded (a
// worker's frame) has the bytes of the same record encoded here.
func TestEncodedRecord(t *testing.T) {
	for _, rec := range batchRecords {
		if rec.Drop {
			continue
		}
		t.Run(rec.Path, func(t *testing.T) {
			frame := content.AppendPlaces(nil, rec.Places)
			if _, err := content.ParsePlaces(frame); err != nil {
				t.Fatal(err)
			}
			enc := rec
			enc.Encoded = frame
			if got, want := content.AppendBatchRecord(nil, enc), content.AppendBatchRecord(nil, rec); !bytes.Equal(got, want) {
				t.Errorf("record from the frame = %x, want %x", got, want)
			}
		})
	}
}
