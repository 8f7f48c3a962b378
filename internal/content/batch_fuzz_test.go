package content_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/content"
)

// FuzzReadBatch feeds any bytes as a batch file (seeds in
// testdata/fuzz/FuzzReadBatch and below): ReadBatch never panics, every
// record it returns encodes back to the bytes it was read from, the
// records lie one after the other up to the tail, and a clean tail is the
// end of the data.
func FuzzReadBatch(f *testing.F) {
	var whole []byte
	whole = append(whole, content.BatchMagic...)
	for _, r := range batchRecords {
		whole = content.AppendBatchRecord(whole, r)
	}
	f.Add(whole)
	f.Add(whole[:len(whole)-3])
	f.Add([]byte(content.BatchMagic))
	f.Add([]byte("FBBATCH1\x05\x00\x00\x00\x00\x00\x00\x00P\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, tail := content.ReadBatch(bytes.NewReader(data))
		off := int64(len(content.BatchMagic))
		for i, e := range recs {
			if e.Offset != off {
				t.Fatalf("record %d at %d, want %d", i, e.Offset, off)
			}
			enc := content.AppendBatchRecord(nil, e.BatchRecord)
			if int64(len(enc)) != e.Len || !bytes.Equal(enc, data[off:off+e.Len]) {
				t.Fatalf("record %d (%+v) encodes to %x, read from %x", i, e.BatchRecord, enc, data[off:off+e.Len])
			}
			back, err := content.ReadBatchAt(bytes.NewReader(data), e.Offset, e.Len)
			if err != nil || !reflect.DeepEqual(back, e.BatchRecord) {
				t.Fatalf("ReadBatchAt(record %d) = %+v, %v", i, back, err)
			}
			off += e.Len
		}
		if len(recs) > 0 || tail.Reason != "header" {
			if tail.Offset != off {
				t.Fatalf("tail at %d, records end at %d", tail.Offset, off)
			}
		}
		if tail.Clean && off != int64(len(data)) {
			t.Fatalf("clean tail at %d of %d bytes", off, len(data))
		}
	})
}

// FuzzParsePlaces feeds any bytes as a worker's places frame: ParsePlaces
// never panics, and places it accepts encode back to the same bytes (its
// names and lines are cut from one string of the frame, issue 35);
// ParsePlacesOwned, which cuts them from the frame itself, reads the same.
func FuzzParsePlaces(f *testing.F) {
	for _, r := range batchRecords {
		f.Add(content.AppendPlaces(nil, r.Places))
	}
	f.Add([]byte{1, 2, 'a', 'b', 2, 1, 'x', 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		places, err := content.ParsePlaces(data)
		owned, errOwned := content.ParsePlacesOwned(bytes.Clone(data))
		if (err == nil) != (errOwned == nil) || !reflect.DeepEqual(places, owned) {
			t.Fatalf("ParsePlacesOwned(%x) = %q, %v; ParsePlaces gave %q, %v", data, owned, errOwned, places, err)
		}
		if err != nil {
			return
		}
		if back := content.AppendPlaces(nil, places); !bytes.Equal(back, data) {
			t.Fatalf("ParsePlaces(%x) = %q, which encodes to %x", data, places, back)
		}
	})
}
