package libreoffice

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestLegacyPrecheck runs the conversion path with a fake soffice: a
// damaged compound file fails before soffice starts (installed or not),
// and only Excel workbooks get the import filter forced.
func TestLegacyPrecheck(t *testing.T) {
	dir := t.TempDir()
	xlsx := filepath.Join(dir, "good.xlsx")
	os.WriteFile(xlsx, lgXLSX(t, "売上", [][]string{{"見積番号", "A-123"}}), 0o644)
	t.Setenv("FAKE_SRC", xlsx)
	book := lgFormatsBook(t)
	word := fixture.CfbFile(t, map[string][]byte{"WordDocument": make([]byte, 4096)})
	// The Workbook entry (1) with a name of 32 characters: LibreOffice
	// cannot open the container.
	badBook := fixture.LgPatch(book, fixture.LgEntry1+64, uint16(66))
	tests := []struct {
		name, file string
		in         []byte
		noSoffice  bool
		msg        string // want a failure with this message
		infilter   string // want soffice run with this forced filter ("": none)
	}{
		{name: "Excel workbook", file: "book.xls", in: book, infilter: "MS Excel 97"},
		{name: "workbook under .xlsb", file: "book.xlsb", in: book, infilter: "MS Excel 97"},
		{name: "Excel 4 worksheet", file: "old.xls", in: fixture.BiffData(uint16(0x0409), uint16(6), uint16(0), uint16(0x10), uint16(0)), infilter: "MS Excel 97"},
		{name: "Word document", file: "memo.doc", in: word, msg: extract.MsgCorrupt},
		{name: "RTF under .doc", file: "memo.doc", in: []byte(`{\rtf1 稟議書}`), msg: extract.MsgCorrupt},
		{name: "damaged workbook", file: "bad.xls", in: badBook, msg: extract.MsgCorrupt},
		{name: "damaged workbook, no LibreOffice", file: "bad.xls", in: badBook, noSoffice: true, msg: extract.MsgCorrupt},
		{name: "damaged document", file: "bad.doc", in: fixture.LgPatch(word, 48, uint32(0x00FFFFF0)), msg: extract.MsgCorrupt},
	}
	fake := fakeSoffice(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.noSoffice {
				withSoffice(t, "")
			} else {
				withSoffice(t, fake)
			}
			args := filepath.Join(t.TempDir(), "args")
			t.Setenv("FAKE_ARGS", args)
			// Word's fake conversion writes nothing, Excel's the xlsx.
			mode := "copy"
			if !strings.HasSuffix(tt.file, ".xls") && !strings.HasSuffix(tt.file, ".xlsb") {
				mode = "none"
			}
			t.Setenv("FAKE_MODE", mode)
			p := filepath.Join(t.TempDir(), tt.file)
			os.WriteFile(p, tt.in, 0o644)
			res, err := ReadLegacyWith(context.Background(), p, extract.Options{Scratch: t.TempDir()}, nil)
			printed, argErr := os.ReadFile(args)
			ran := argErr == nil
			damaged := strings.HasPrefix(tt.name, "damaged")
			if tt.msg != "" {
				var e *extract.Error
				if !errors.As(err, &e) || e.Msg != tt.msg {
					t.Fatalf("readLegacy(%s) = %v, want %q", tt.file, err, tt.msg)
				}
				if damaged && (len(e.Log) != 1 || !strings.HasPrefix(e.Log[0], msgLogDamaged)) {
					t.Errorf("readLegacy(%s) log = %q, want %q…", tt.file, e.Log, msgLogDamaged)
				}
			} else if err != nil || len(res.Places) != 1 || res.Places[0].Name != "売上" {
				t.Fatalf("readLegacy(%s) = %v, %v, want the converted 売上", tt.file, res, err)
			}
			if ran == damaged {
				t.Fatalf("soffice ran: %v, want %v", ran, !damaged)
			}
			if !ran {
				return
			}
			var got string
			for _, a := range strings.Split(string(printed), "\n") {
				if f, ok := strings.CutPrefix(a, "--infilter="); ok {
					got = f
				}
			}
			if got != tt.infilter {
				t.Errorf("soffice forced filter %q, want %q; arguments:\n%s", got, tt.infilter, printed)
			}
		})
	}
}

// TestLegacyDamagedCorpus extracts the damaged compound file of the
// corpus: the native reader fails and it must fail as damaged, not be
// converted (LibreOffice imported its bytes as text, a sheet "source" of
// 2,462 junk lines).
func TestLegacyDamagedCorpus(t *testing.T) {
	p := filepath.Join(testutil.Corpus(t), "calamine", "OOM_alloc3.xls")
	if _, err := os.Stat(p); err != nil {
		testutil.CorpusMissing(t, "corpus file not found: %v", err)
	}
	res, err := extract.Extract(context.Background(), p, filepath.Base(p), extract.Options{Scratch: t.TempDir()})
	var e *extract.Error
	if !errors.As(err, &e) || e.Msg != extract.MsgCorrupt {
		t.Fatalf("Extract(OOM_alloc3.xls) = %v, %v, want %q", res, err, extract.MsgCorrupt)
	}
	want := msgLogDamaged + "directory entry 4: name length 65280"
	if len(e.Log) != 1 || e.Log[0] != want {
		t.Errorf("Extract(OOM_alloc3.xls) log = %q, want %q", e.Log, want)
	}
}

// TestLegacyLibreOfficeRefusesDamaged converts, with the real LibreOffice,
// a workbook whose FAT is zeroed: the container passes streams.Damage (the
// directory sector and its entries are intact), but LibreOffice's storage
// refuses it, and without the forced Excel filter Calc imported its bytes
// as text.
func TestLegacyLibreOfficeRefusesDamaged(t *testing.T) {
	lgNeedSoffice(t)
	root := t.TempDir()
	defer checkNoSoffice(t, root)
	b := lgFormatsBook(t)
	copy(b[fixture.LgFATSect:fixture.LgFATSect+512], make([]byte, 512))
	if why := streams.Damage(bytes.NewReader(b), int64(len(b))); why != "" {
		t.Fatalf("cfbDamage = %q, want the container to pass", why)
	}
	p := filepath.Join(root, "zeroed.xls")
	os.WriteFile(p, b, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := ReadLegacyWith(ctx, p, extract.Options{Scratch: filepath.Join(root, "w")}, nil)
	var e *extract.Error
	if !errors.As(err, &e) || e.Msg != extract.MsgCorrupt {
		t.Fatalf("readLegacy(zeroed FAT) = %v, %v, want %q", res, err, extract.MsgCorrupt)
	}
}
