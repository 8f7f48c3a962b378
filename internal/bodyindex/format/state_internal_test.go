package format

import (
	"runtime"
	"testing"
)

// TestSpareStatesOutliveCollections: a released encoder's state is the
// next encoder's, however many garbage collections come between (a
// sync.Pool dropped it after two, issue 35), and a state that built a
// large part is kept without its part buffers.
func TestSpareStatesOutliveCollections(t *testing.T) {
	for _, tc := range []struct {
		name     string
		data     int
		keepData bool
	}{
		{"small part", 1 << 20, true},
		{"large part", maxSpareData + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewEncoder(func(BuiltPart) error { return nil })
			st := e.encoderState
			st.data = make([]byte, 0, tc.data)
			st.spare = &partBuilder{}
			e.Release()
			runtime.GC()
			runtime.GC()
			runtime.GC()
			next := NewEncoder(func(BuiltPart) error { return nil })
			defer next.Release()
			if next.encoderState != st {
				t.Fatalf("the next encoder got a new state")
			}
			if kept := next.data != nil && next.spare != nil; kept != tc.keepData {
				t.Errorf("part buffers kept = %v, want %v", kept, tc.keepData)
			}
		})
	}
}

// TestSpareStatesBounded: no more than maxSpareStates states are kept in
// the list; the others go to the pool.
func TestSpareStatesBounded(t *testing.T) {
	var encs []*Encoder
	for range maxSpareStates + 3 {
		encs = append(encs, NewEncoder(func(BuiltPart) error { return nil }))
	}
	for _, e := range encs {
		e.Release()
	}
	spareStates.Lock()
	n := len(spareStates.free)
	spareStates.Unlock()
	if n != maxSpareStates {
		t.Errorf("%d states kept, want %d", n, maxSpareStates)
	}
}
