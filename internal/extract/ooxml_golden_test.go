package extract_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// renderResult prints places and log in the golden-file form:
//
//	== <place>
//	<line>
//	-- log
//	<log line>
//
// or, for a failure, "!! <message>" followed by the error's log lines.
func renderResult(res *extract.Result, err error) string {
	var b strings.Builder
	if err != nil {
		var fe *extract.Error
		if errors.As(err, &fe) {
			b.WriteString("!! " + fe.Msg + "\n")
			for _, l := range fe.Log {
				b.WriteString("-- log\n" + l + "\n")
			}
		} else {
			b.WriteString("!! (not *Error) " + err.Error() + "\n")
		}
		return b.String()
	}
	for _, p := range res.Places {
		b.WriteString("== " + p.Name + "\n")
		for _, l := range p.Lines {
			b.WriteString(l + "\n")
		}
	}
	if len(res.Log) > 0 {
		b.WriteString("-- log\n")
		for _, l := range res.Log {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// checkGolden compares got with testdata/<test>/<name>.golden, rewriting
// it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	testutil.Golden(t, testutil.GoldenPath(t, name), []byte(got))
}

// ooxmlExtractBytes writes data to a temporary file named name and extracts it.
func ooxmlExtractBytes(tb testing.TB, name string, data []byte, opt extract.Options) (*extract.Result, error) {
	tb.Helper()
	dir := tb.TempDir()
	p := writeFile(tb, dir, name, data)
	if opt.Scratch == "" {
		opt.Scratch = filepath.Join(dir, "scratch")
	}
	return extract.Extract(context.Background(), p, name, opt)
}
