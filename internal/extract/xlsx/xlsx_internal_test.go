package xlsx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/ooxml"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestXlStringsSpill moves the shared strings to a scratch file part-way
// (in a scratch folder the worker has not made: it makes none for a file
// that uses none) and reads every string back, empty ones among them.
func TestXlStringsSpill(t *testing.T) {
	old := spillBytes
	spillBytes = 64
	defer func() { spillBytes = old }()
	s := &xlStrings{scratch: filepath.Join(t.TempDir(), "x")}
	var want []string
	for i := 0; i < 200; i++ {
		v := strings.Repeat(string(rune('あ'+i%50)), i%7) + sheet.Itoa(i)
		if i%3 == 0 || i >= 64 && i < 140 {
			v = "" // empty strings take no arena bytes, whole words of them too
		}
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

// TestReadXlsxNotZip calls the reader directly: Extract sends non-ZIP
// files under OOXML names to the legacy path before any reader runs.
func TestReadXlsxNotZip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "text.xlsx")
	if err := os.WriteFile(path, []byte("not a workbook at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readXlsx(context.Background(), path, extract.Options{Scratch: dir})
	var fe *extract.Error
	if !errors.As(err, &fe) || !strings.HasPrefix(fe.Msg, extract.MsgCorrupt) || !errors.Is(err, ooxml.ErrNotZip) {
		t.Errorf("readXlsx(text) = %v; want a corrupt *Error wrapping ErrNotZip", err)
	}
	for name, msg := range map[string]string{"rights-ooxml.cfb": extract.MsgRights, "password-ooxml.cfb": extract.MsgPassword} {
		_, err := readXlsx(context.Background(), filepath.Join("..", "..", "officefile", "testdata", name), extract.Options{Scratch: dir})
		if !errors.As(err, &fe) || fe.Msg != msg {
			t.Errorf("readXlsx(%s) = %v; want %q", name, err, msg)
		}
	}
	enc := filepath.Join(testutil.Corpus(t), "calamine", "pass_protected.xlsx")
	if _, err := os.Stat(enc); err != nil {
		testutil.CorpusMissing(t, "corpus file %s absent", enc)
	}
	_, err = readXlsx(context.Background(), enc, extract.Options{Scratch: dir})
	if !errors.As(err, &fe) || fe.Msg != extract.MsgPassword {
		t.Errorf("readXlsx(encrypted) = %v; want %q", err, extract.MsgPassword)
	}
}

func TestXlHeaderFooterLines(t *testing.T) {
	h := sheet.HeaderFooter{DifferentOddEven: true, Parts: map[string]string{
		"firstHeader": "&C表紙（無効）",
		"oddHeader":   "&L社外秘&R&P",
		"evenHeader":  "&L社外秘&C偶数\t頁",
		"oddFooter":   "&C\"引用\"_x000D_",
		"evenFooter":  "&C&&",
	}}
	got := strings.Join(h.Lines(), "|")
	want := "社外秘|偶数 頁|\"\"\"引用\"\"\"|&"
	if got != want {
		t.Errorf("lines = %q, want %q", got, want)
	}
}
