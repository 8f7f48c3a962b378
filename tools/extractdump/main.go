// Command extractdump prints what the readers make of files, for looking
// at real documents by hand (it replaces the dump tests of the readers):
//
//	go run ./tools/extractdump FILE…            places and log through extract.Extract
//	go run ./tools/extractdump -native FILE…    the native .xls/.xlsb/.doc/.ppt reader alone
//	go run ./tools/extractdump -xls-records [-types 0085,00FC] [-full] FILE.xls
//	go run ./tools/extractdump -ppt-records FILE.ppt
//
// -xls-records prints the BIFF records of the workbook stream (decrypted
// when the file uses Excel's default password): offset, type and the
// first 64 bytes (-full: all). -ppt-records prints the record tree of the
// PowerPoint Document stream with texts, persist and placeholder atoms and
// the streams of embedded objects.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/ppt"
	"github.com/fumibako/fumibako/internal/extract/xls"
)

func main() {
	native := flag.Bool("native", false, "read .xls/.xlsb/.doc/.ppt with the native reader only (no LibreOffice)")
	xlsRecords := flag.Bool("xls-records", false, "print the BIFF records of an .xls workbook stream")
	types := flag.String("types", "", "with -xls-records: record types to print (hex, comma-separated; all when empty)")
	full := flag.Bool("full", false, "with -xls-records: print whole records, not their first 64 bytes")
	pptRecords := flag.Bool("ppt-records", false, "print the record tree of a .ppt")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: extractdump [-native | -xls-records [-types T,…] [-full] | -ppt-records] FILE…")
		os.Exit(2)
	}
	failed := false
	for _, f := range flag.Args() {
		fmt.Printf("##### %s\n", f)
		var err error
		switch {
		case *xlsRecords:
			err = xls.DumpRecords(os.Stdout, f, parseTypes(*types), *full)
		case *pptRecords:
			err = ppt.DumpRecords(os.Stdout, f)
		default:
			err = dump(f, *native)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "extractdump: %s: %v\n", f, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// dump prints the places, log and failure of one file.
func dump(path string, native bool) error {
	scratch, err := os.MkdirTemp("", "extractdump-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	read := func(ctx context.Context, p string, opt extract.Options) (*extract.Result, error) {
		return extract.Extract(ctx, p, filepath.Base(p), opt)
	}
	if native {
		r, ok := extract.NativeReaders()[strings.ToLower(filepath.Ext(path))]
		if !ok {
			return errors.New("no native reader for this extension")
		}
		read = r
	}
	res, err := read(context.Background(), path, extract.Options{Scratch: scratch})
	if err != nil {
		var fe *extract.Error
		if errors.As(err, &fe) {
			fmt.Printf("!! %s\n   (%v)\n", fe.Msg, fe.Cause)
			for _, l := range fe.Log {
				fmt.Printf("-- log %s\n", l)
			}
			return nil
		}
		return err
	}
	for _, p := range res.Places {
		fmt.Printf("== %s\n", p.Name)
		for i, l := range p.Lines {
			fmt.Printf("%d: %q\n", i+1, l)
		}
	}
	for _, l := range res.Log {
		fmt.Printf("-- log %s\n", l)
	}
	return nil
}

func parseTypes(s string) map[uint16]bool {
	want := map[uint16]bool{}
	for _, t := range strings.Split(s, ",") {
		if v, err := strconv.ParseUint(strings.TrimSpace(t), 16, 16); err == nil {
			want[uint16(v)] = true
		}
	}
	return want
}
