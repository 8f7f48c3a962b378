package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// TestReadMessages: the coordinator's reader of a worker's pipe gives
// JSON lines without their line ends and a frame of inline places (issue
// 35) as '#' and its bytes, whatever bytes the frame holds; a frame over
// the bound or cut short ends the reading.
func TestReadMessages(t *testing.T) {
	places := content.AppendPlaces(nil, []extract.Place{{Name: "本文", Lines: []string{"a\tb", "{\"x\":1}\n#9"}}})
	frame := "#" + strconv.Itoa(len(places)) + "\n" + string(places)
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"lines", "{\"id\":1}\n{\"id\":2}\r\n{\"id\":3}", []string{`{"id":1}`, `{"id":2}`, `{"id":3}`}},
		{"frame then response", frame + "{\"id\":1,\"inlined\":true}\n", []string{"#" + string(places), `{"id":1,"inlined":true}`}},
		{"empty frame", "#0\n{\"id\":1}\n", []string{"#", `{"id":1}`}},
		{"frame cut short", "#10\nabc", nil},
		{"frame over the bound", "#" + strconv.Itoa(content.BatchRecordMax+1) + "\n", nil},
		{"bad frame length", "#x\n{\"id\":1}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := make(chan []byte, 10)
			readMessages(strings.NewReader(tt.in), out)
			close(out)
			var got []string
			for m := range out {
				got = append(got, string(m))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("readMessages(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSendResponseFrame: a worker's inline Response goes out as its frame
// and its JSON line, which readMessages and the pipe put back together.
func TestSendResponseFrame(t *testing.T) {
	var buf bytes.Buffer
	s := &sender{enc: json.NewEncoder(&buf), w: &buf}
	pl := []extract.Place{{Name: "Sheet1", Lines: []string{"x", "", "y"}}}
	if err := s.sendResponse(Response{ID: 7, OK: true, TSVCount: 1, Inline: true, Places: content.AppendPlaces(nil, pl)}, false); err != nil {
		t.Fatal(err)
	}
	out := make(chan []byte, 4)
	readMessages(&buf, out)
	close(out)
	var got []Result
	p := &pipe{s: &Slot{}, done: func(_ Request, r Result) { got = append(got, r) }, queue: []Request{{ID: 7}}}
	for m := range out {
		p.answer(m)
	}
	if len(got) != 1 || got[0].Outcome != Finished {
		t.Fatalf("results %+v", got)
	}
	back, err := content.ParsePlaces(got[0].Response.Places)
	if err != nil || !reflect.DeepEqual(back, pl) {
		t.Errorf("places back %q, %v; want %q", back, err, pl)
	}
}

// TestServeInlineFrames: a worker answering small files one after another
// (its frame buffer kept from one file for the next) sends each file's own
// places, whether the next file's frame is shorter, longer, empty or
// fails.
func TestServeInlineFrames(t *testing.T) {
	dir := t.TempDir()
	files := []struct {
		name string
		text string
		want []string // nil: no places; "fail": a failure
	}{
		{"a.txt", strings.Repeat("長い行です。\r\n", 300), slices.Repeat([]string{"長い行です。"}, 300)},
		{"b.txt", "短い\n", []string{"短い"}},
		{"c.txt", "\n \n", nil},
		{"d.txt", "PK\x03\x04\x14\x00\x00\x00\x08\x00", []string{"fail"}},
		{"e.txt", strings.Repeat("もっと長い行です。\n", 500), slices.Repeat([]string{"もっと長い行です。"}, 500)},
		{"f.txt", "終わり", []string{"終わり"}},
	}
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	got := serveInline(t, paths)
	for i, f := range files {
		r := got[i].Response
		if slices.Equal(f.want, []string{"fail"}) {
			if r.OK {
				t.Errorf("%s: answered OK, want a failure", f.name)
			}
			continue
		}
		places, err := content.ParsePlaces(r.Places)
		if err != nil || !r.OK || !r.Inline {
			t.Fatalf("%s: response %+v, places %v", f.name, r, err)
		}
		var lines []string
		for _, pl := range places {
			lines = append(lines, pl.Lines...)
		}
		if !slices.Equal(lines, f.want) {
			t.Errorf("%s: lines %q, want %q", f.name, lines, f.want)
		}
	}
}

// serveInline has Serve extract the files at paths (inline requests, ids
// 1…) and returns the results the coordinator's pipe makes of the
// answers, in order.
func serveInline(t *testing.T, paths []string) []Result {
	t.Helper()
	dir := t.TempDir()
	var reqs strings.Builder
	for i, p := range paths {
		line, _ := json.Marshal(Request{ID: int64(i + 1), Path: p, Name: filepath.Base(p), Stage: filepath.Join(dir, "stage"), Inline: true})
		reqs.Write(append(line, '\n'))
	}
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(reqs.String()), &out, ServeConfig{Scratch: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	msgs := make(chan []byte, 2*len(paths)+1)
	readMessages(&out, msgs)
	close(msgs)
	var got []Result
	var queue []Request
	for i := range paths {
		queue = append(queue, Request{ID: int64(i + 1)})
	}
	p := &pipe{s: &Slot{}, done: func(_ Request, r Result) { got = append(got, r) }, queue: queue}
	for m := range msgs {
		p.answer(m)
	}
	if len(got) != len(paths) {
		t.Fatalf("%d results, want %d", len(got), len(paths))
	}
	return got
}

// TestServeVanished: a file gone since the crawl is answered as a failure
// marked Vanished, so the coordinator drops it instead of failing it; a
// file that is there but cannot be read is a plain failure.
func TestServeVanished(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.txt")
	if err := os.WriteFile(broken, []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.txt")
	if err := os.WriteFile(good, []byte("ある\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path         string
		ok, vanished bool
	}{
		{filepath.Join(dir, "gone.txt"), false, true},
		{filepath.Join(dir, "no folder", "gone.xlsx"), false, true},
		{broken, false, false},
		{good, true, false},
	}
	var paths []string
	for _, tt := range tests {
		paths = append(paths, tt.path)
	}
	got := serveInline(t, paths)
	for i, tt := range tests {
		r := got[i].Response
		if r.OK != tt.ok || r.Vanished != tt.vanished {
			t.Errorf("%s: ok %v vanished %v (msg %q), want ok %v vanished %v", tt.path, r.OK, r.Vanished, r.Msg, tt.ok, tt.vanished)
		}
	}
}

// writeLog records each Write as one string, safe for the hold timer's
// goroutine.
type writeLog struct {
	mu     sync.Mutex
	writes []string
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

func (w *writeLog) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.writes)
}

// TestSenderHolds: answers sent while more requests wait are held and go
// out in one write with the first one sent without (or at Depth answers,
// or before an interim message); the bytes are those of one write each.
// Held answers that nothing follows go out after holdFor.
func TestSenderHolds(t *testing.T) {
	resp := func(id int64) Response {
		pl := []extract.Place{{Name: "本文", Lines: []string{fmt.Sprint("行 ", id)}}}
		return Response{ID: id, OK: true, TSVCount: 1, Inline: true, Places: content.AppendPlaces(nil, pl)}
	}
	one := func(ids ...int64) string {
		var b bytes.Buffer
		s := &sender{enc: json.NewEncoder(&b), w: &b}
		for _, id := range ids {
			s.sendResponse(resp(id), false)
		}
		return b.String()
	}
	tests := []struct {
		name   string
		more   []bool  // per answer: another request waits
		writes []int64 // the last answer of each write
	}{
		{"none waits", []bool{false, false, false}, []int64{1, 2, 3}},
		{"a group", []bool{true, true, false}, []int64{3}},
		{"two groups", []bool{true, false, true, true, false}, []int64{2, 5}},
		{"at most Depth", []bool{true, true, true, true, true, true, true, true, true, false}, []int64{8, 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &writeLog{}
			s := &sender{enc: json.NewEncoder(w), w: w}
			for i, more := range tt.more {
				if err := s.sendResponse(resp(int64(i+1)), more); err != nil {
					t.Fatal(err)
				}
			}
			if len(w.writes) != len(tt.writes) {
				t.Fatalf("%d writes, want %d", len(w.writes), len(tt.writes))
			}
			from := int64(1)
			for i, last := range tt.writes {
				var ids []int64
				for id := from; id <= last; id++ {
					ids = append(ids, id)
				}
				if w.writes[i] != one(ids...) {
					t.Errorf("write %d = %q, want the answers %v as one write each would give them", i, w.writes[i], ids)
				}
				from = last + 1
			}
		})
	}
	t.Run("interim first flushes", func(t *testing.T) {
		w := &writeLog{}
		s := &sender{enc: json.NewEncoder(w), w: w}
		s.sendResponse(resp(1), true)
		s.send(wireLine{OCRProgress: &OCRProgress{Done: 1, Total: 2}})
		if len(w.writes) != 2 || w.writes[0] != one(1) {
			t.Fatalf("writes %q, want answer 1 before the interim line", w.writes)
		}
	})
	t.Run("timer", func(t *testing.T) {
		w := &writeLog{}
		s := &sender{enc: json.NewEncoder(w), w: w}
		s.sendResponse(resp(1), true)
		s.sendResponse(resp(2), true)
		deadline := time.Now().Add(10 * time.Second)
		for w.count() == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if w.count() != 1 || w.writes[0] != one(1, 2) {
			t.Fatalf("writes %q after holdFor, want answers 1 and 2 in one", w.writes)
		}
		s.sendResponse(resp(3), false)
		if w.count() != 2 || w.writes[1] != one(3) {
			t.Fatalf("writes %q, want answer 3 alone", w.writes)
		}
	})
}
