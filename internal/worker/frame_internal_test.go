package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

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
	if err := s.sendResponse(Response{ID: 7, OK: true, TSVCount: 1, Inline: true, Places: content.AppendPlaces(nil, pl)}); err != nil {
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
	var reqs strings.Builder
	for i, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		line, _ := json.Marshal(Request{ID: int64(i + 1), Path: p, Name: f.name, Stage: filepath.Join(dir, "stage"), Inline: true})
		reqs.Write(append(line, '\n'))
	}
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(reqs.String()), &out, ServeConfig{Scratch: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	msgs := make(chan []byte, 2*len(files)+1)
	readMessages(&out, msgs)
	close(msgs)
	var got []Result
	var queue []Request
	for i := range files {
		queue = append(queue, Request{ID: int64(i + 1)})
	}
	p := &pipe{s: &Slot{}, done: func(_ Request, r Result) { got = append(got, r) }, queue: queue}
	for m := range msgs {
		p.answer(m)
	}
	if len(got) != len(files) {
		t.Fatalf("%d results, want %d", len(got), len(files))
	}
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
	var reqs strings.Builder
	for i, tt := range tests {
		line, _ := json.Marshal(Request{ID: int64(i + 1), Path: tt.path, Name: filepath.Base(tt.path), Stage: filepath.Join(dir, "stage"), Inline: true})
		reqs.Write(append(line, '\n'))
	}
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(reqs.String()), &out, ServeConfig{Scratch: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	msgs := make(chan []byte, 2*len(tests)+1)
	readMessages(&out, msgs)
	close(msgs)
	var got []Result
	var queue []Request
	for i := range tests {
		queue = append(queue, Request{ID: int64(i + 1)})
	}
	p := &pipe{s: &Slot{}, done: func(_ Request, r Result) { got = append(got, r) }, queue: queue}
	for m := range msgs {
		p.answer(m)
	}
	if len(got) != len(tests) {
		t.Fatalf("%d results, want %d", len(got), len(tests))
	}
	for i, tt := range tests {
		r := got[i].Response
		if r.OK != tt.ok || r.Vanished != tt.vanished {
			t.Errorf("%s: ok %v vanished %v (msg %q), want ok %v vanished %v", tt.path, r.OK, r.Vanished, r.Msg, tt.ok, tt.vanished)
		}
	}
}
