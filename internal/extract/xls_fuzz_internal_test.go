package extract

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fuzz targets of the native .xls and .xlsb readers. Inputs that are not a
// compound file (or ZIP) are wrapped, so the fuzzer spends its time on the
// records rather than on the container: FuzzXls puts them into a compound
// file as the Workbook stream, FuzzXlsb into the test package as the first
// worksheet part. Every input must give places or an *Error, never a
// recovered panic. Seeds are the test workbooks; go test -update writes
// them to testdata/fuzz/<target>/ as well.
//
//	go test -run '^$' -fuzz FuzzXls -fuzztime 20s ./internal/extract/

// nativeFuzzUpdate reports whether -update was given (the flag is defined
// by the package's external tests).
func nativeFuzzUpdate() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func nativeFuzzSeeds(f *testing.F, seeds map[string][]byte) {
	for name, data := range seeds {
		f.Add(data)
		if nativeFuzzUpdate() {
			dir := filepath.Join("testdata", "fuzz", f.Name())
			if err := os.MkdirAll(dir, 0o755); err != nil {
				f.Fatal(err)
			}
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
			if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(body), 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
}

// checkNative fails on anything but places or an *Error without a panic.
func checkNative(t *testing.T, res *Result, err error) {
	if err == nil {
		if res == nil {
			t.Fatal("nil result without an error")
		}
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is no *Error", err)
	}
	if strings.Contains(e.Msg, "panic") || (e.Cause != nil && strings.Contains(e.Cause.Error(), "panic while reading")) {
		t.Fatalf("recovered panic: %v", e.Cause)
	}
}

// fuzzOptions keep each run small.
var fuzzOptions = Options{Limits: Limits{ZipPartBytes: 1 << 20, ZipTotalBytes: 4 << 20}}

func FuzzXls(f *testing.F) {
	enc := basicBIFF8(f)
	nativeFuzzSeeds(f, map[string][]byte{
		"biff8":       basicBIFF8(f),
		"biff5":       biff5Book(f),
		"biff8-cfb":   cfbFile(f, map[string][]byte{"Workbook": enc}),
		"sst-split":   buildBIFF8(nil, nil, sstRecords(3, 3, biffData(xlStr("a"), uint16(4), uint8(0), "ab"), biffData(uint8(1), u16s("日本"))), nil),
		"date1904":    buildBIFF8(func(b *biff) { b.rec(xlsRDateMode, 1) }, []int{14}, nil, []xlsSheetSpec{{name: "S", body: func(b *biff) { b.rec(xlsRNumber, 0, 0, 0, 1.0) }}}),
		"filepass":    buildBIFF8(func(b *biff) { b.rec(xlsRFilePass, rc4FilePass(xlsDefaultPassword)) }, nil, nil, []xlsSheetSpec{{name: "S"}}),
		"empty-sheet": buildBIFF8(nil, nil, nil, []xlsSheetSpec{{name: "S"}}),
	})
	old := xlsTextCap
	xlsTextCap = 8 << 20
	defer func() { xlsTextCap = old }()
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}) {
			if len(data) > 60000 {
				data = data[:60000]
			}
			name := "Workbook"
			if len(data) >= 6 && le16(data, 4) == xlsBIFF5 {
				name = "Book"
			}
			data = cfbFile(t, map[string][]byte{name: data})
		}
		p := filepath.Join(t.TempDir(), "f.xls")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := readXlsNative(context.Background(), p, fuzzOptions)
		checkNative(t, res, err)
	})
}

func FuzzXlsb(f *testing.F) {
	basic := basicXlsb(f, false)
	nativeFuzzSeeds(f, map[string][]byte{
		"package":    xlsbPackage(f, basic),
		"sheet":      basic["xl/worksheets/sheet1.bin"],
		"date1904":   xlsbPackage(f, basicXlsb(f, true)),
		"header-row": brt(xlsbRowHdr, uint32(1048575), make([]byte, 13)),
	})
	old := xlsTextCap
	xlsTextCap = 8 << 20
	defer func() { xlsTextCap = old }()
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, []byte("PK")) {
			parts := basicXlsb(t, false)
			parts["xl/worksheets/sheet1.bin"] = data
			data = xlsbPackage(t, parts)
		}
		p := filepath.Join(t.TempDir(), "f.xlsb")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := readXlsbNative(context.Background(), p, Options{Scratch: t.TempDir(), Limits: fuzzOptions.Limits})
		checkNative(t, res, err)
	})
}
