package worker

import (
	"bytes"
	"encoding/json"
	"reflect"
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
