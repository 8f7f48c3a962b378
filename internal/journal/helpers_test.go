package journal_test

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/workspace"
)

// text builds journal bytes from lines written with `|` as the column
// marker: a BOM, the columns TAB-separated, each line ending in CRLF.
func text(lines ...string) string {
	var b strings.Builder
	b.WriteString("\uFEFF")
	for _, l := range lines {
		b.WriteString(strings.ReplaceAll(l, "|", "\t"))
		b.WriteString("\r\n")
	}
	return b.String()
}

// keys folds ingest-list relative paths into data-line keys; "" stands for
// a malformed line.
func keys(paths ...string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if p != "" {
			out[i] = workspace.FoldKey(p)
		}
	}
	return out
}

func mustRead(t testing.TB, s string) *journal.Log {
	t.Helper()
	l, err := journal.Read(strings.NewReader(s))
	if err != nil {
		t.Fatalf("Read(%q) error: %v", s, err)
	}
	return l
}
