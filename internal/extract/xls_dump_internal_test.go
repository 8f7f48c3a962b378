package extract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
		r, ok := nativeReaders[strings.ToLower(filepath.Ext(f))]
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
