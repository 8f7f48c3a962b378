package extract

import (
	"os"
	"strings"
	"testing"
)

// TestXlStringsSpill moves the shared strings to a scratch file part-way
// and reads every string back.
func TestXlStringsSpill(t *testing.T) {
	old := xlSpillBytes
	xlSpillBytes = 64
	defer func() { xlSpillBytes = old }()
	s := &xlStrings{scratch: t.TempDir()}
	var want []string
	for i := 0; i < 200; i++ {
		v := strings.Repeat(string(rune('あ'+i%50)), i%7) + xlItoa(i)
		want = append(want, v)
		if err := s.add(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	if s.file == nil {
		t.Fatal("strings did not spill to a file")
	}
	for i, w := range want {
		got, ok, err := s.get(i)
		if err != nil || !ok || got != w {
			t.Errorf("get(%d) = %q, %v, %v; want %q", i, got, ok, err, w)
		}
	}
	if _, ok, _ := s.get(len(want)); ok {
		t.Errorf("get past the end succeeded")
	}
	name := s.file.Name()
	s.close()
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("spill file %s not removed: %v", name, err)
	}
}
