package extract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
		r, ok := nativeReaderMap()[strings.ToLower(filepath.Ext(f))]
		if !ok {
			t.Logf("##### %s: no native reader", f)
			continue
		}
		res, err := r(context.Background(), f, Options{Scratch: t.TempDir()})
		t.Logf("##### %s\n%s", f, nativeRender(res, err))
	}
}

// nativeRender prints a result as "== place" headers and its lines.
func nativeRender(res *Result, err error) string {
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "error: %v (%v)\n", err, errorsCause(err))
		return b.String()
	}
	for _, p := range res.Places {
		fmt.Fprintf(&b, "== %s\n", p.Name)
		for i, l := range p.Lines {
			fmt.Fprintf(&b, "%d: %q\n", i+1, l)
		}
	}
	for _, l := range res.Log {
		fmt.Fprintf(&b, "log: %s\n", l)
	}
	return b.String()
}

func errorsCause(err error) error {
	if e, ok := err.(*Error); ok {
		return e.Cause
	}
	return nil
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
	r, _, err := xlsWorkbookStream(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint16]bool{}
	for _, s := range strings.Split(os.Getenv("FUMIBAKO_XLS_TYPES"), ",") {
		if v, err := strconv.ParseUint(strings.TrimSpace(s), 16, 16); err == nil {
			want[uint16(v)] = true
		}
	}
	rr := newXlsRecordReader(r)
	for {
		typ, data, off, err := rr.next()
		if err != nil {
			break
		}
		if typ == xlsRFilePass {
			rr.dec, _ = newXlsDecrypter(data)
		}
		if len(want) == 0 || want[typ] {
			if len(data) > 64 && os.Getenv("FUMIBAKO_XLS_FULL") == "" {
				data = data[:64]
			}
			t.Logf("%8d %04X %x", off, typ, data)
		}
	}
}
