package xls

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// TestNativeDump prints what the native .xls/.xlsb readers make of the
// files named in $FUMIBAKO_NATIVE_DUMP (separated by the OS list
// separator): go test -run TestNativeDump -v ./internal/extract/
func TestNativeDump(t *testing.T) {
	list := os.Getenv("FUMIBAKO_NATIVE_DUMP")
	if list == "" {
		t.Skip("set FUMIBAKO_NATIVE_DUMP to a list of .xls/.xlsb files to print")
	}
	for _, f := range filepath.SplitList(list) {
		r, ok := extract.NativeReaders()[strings.ToLower(filepath.Ext(f))]
		if !ok {
			t.Logf("##### %s: no native reader", f)
			continue
		}
		res, err := r(context.Background(), f, extract.Options{Scratch: t.TempDir()})
		t.Logf("##### %s\n%s", f, fixture.NativeRender(res, err))
	}
}

// TestXlsRecordDump prints the BIFF records of the workbook stream of the
// .xls file $FUMIBAKO_XLS_RECORDS (types in $FUMIBAKO_XLS_TYPES, hex,
// comma-separated; all when empty), decrypted when the file uses Excel's
// default password: go test -run TestXlsRecordDump -v ./internal/extract/
func TestXlsRecordDump(t *testing.T) {
	p := os.Getenv("FUMIBAKO_XLS_RECORDS")
	if p == "" {
		t.Skip("set FUMIBAKO_XLS_RECORDS to an .xls file to print its records")
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := workbookStream(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint16]bool{}
	for _, s := range strings.Split(os.Getenv("FUMIBAKO_XLS_TYPES"), ",") {
		if v, err := strconv.ParseUint(strings.TrimSpace(s), 16, 16); err == nil {
			want[uint16(v)] = true
		}
	}
	rr := biff.NewXlsRecordReader(r)
	for {
		typ, data, off, err := rr.Next()
		if err != nil {
			break
		}
		if typ == biff.RFilePass {
			rr.Dec, _ = biff.NewXlsDecrypter(data)
		}
		if len(want) == 0 || want[typ] {
			if len(data) > 64 && os.Getenv("FUMIBAKO_XLS_FULL") == "" {
				data = data[:64]
			}
			t.Logf("%8d %04X %x", off, typ, data)
		}
	}
}
