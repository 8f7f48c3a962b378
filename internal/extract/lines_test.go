package extract_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// TestIssue36LongLines: whatever the reader, Extract hands back lines of
// at most extract.LineMaxRunes runes, a long one split into continuation
// lines of the same place, and fails a file over the text budget.
func TestIssue36LongLines(t *testing.T) {
	long := "冒頭" + strings.Repeat("あいうえおかきくけこ", 3*extract.LineMaxRunes/10) + "末尾"
	write := map[string]func(path string) error{
		"long.txt":  func(p string) error { return testcorpus.WriteText(p, "前の行\n"+long+"\n後の行\n", "utf-8") },
		"long.docx": func(p string) error { return testcorpus.WriteDocx(p, []string{"前の行", long, "後の行"}) },
	}
	for _, tc := range []struct {
		name   string
		budget int64
		want   int // stored lines of the file; 0: fails with MsgTextTooLarge
	}{
		{"long.txt", 0, 2 + 4},
		{"long.docx", 0, 2 + 4},
		{"long.txt", int64(len(long)), 0},
		{"long.docx", int64(len(long)), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), tc.name)
			if err := write[tc.name](p); err != nil {
				t.Fatal(err)
			}
			res, err := extract.Extract(context.Background(), p, tc.name, extract.Options{Scratch: t.TempDir(), Limits: extract.Limits{TextBudget: tc.budget}})
			if tc.want == 0 {
				var xerr *extract.Error
				if !errors.As(err, &xerr) || xerr.Msg != extract.MsgTextTooLarge {
					t.Fatalf("Extract = %v, want %q", err, extract.MsgTextTooLarge)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The lines of every place in order (Word's estimated pages
			// put the last paragraph on a page of its own).
			var lines []string
			for _, pl := range res.Places {
				lines = append(lines, pl.Lines...)
			}
			if len(lines) != tc.want {
				t.Fatalf("%d lines, want %d", len(lines), tc.want)
			}
			for i, l := range lines {
				cont := i >= 2 && i < len(lines)-1
				if extract.IsContinuation(l) != cont {
					t.Errorf("line %d: continuation %v, want %v", i, !cont, cont)
				}
				if n := utf8.RuneCountInString(strings.TrimPrefix(l, extract.ContinuationMark)); n > extract.LineMaxRunes {
					t.Errorf("line %d holds %d runes", i, n)
				}
			}
			if !strings.HasPrefix(lines[1], "冒頭") || !strings.HasSuffix(lines[len(lines)-2], "末尾") || lines[len(lines)-1] != "後の行" {
				t.Errorf("pieces out of place: %.12q … %.12q", lines[1], lines[len(lines)-2])
			}
		})
	}
}
