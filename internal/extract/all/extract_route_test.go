package all_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestExtractRoutesNonZipPackages: an OOXML name over a compound file is
// classified before parsing: encrypted packages get the password message.
func TestExtractRoutesNonZipPackages(t *testing.T) {
	corpus := testutil.Corpus(t)
	tests := []struct{ file, msg string }{
		{"calamine/pass_protected.xlsx", extract.MsgPassword},
		{"tika/testEXCEL_protected_passtika.xlsx", extract.MsgPassword},
	}
	for _, tt := range tests {
		p := filepath.Join(corpus, tt.file)
		if _, err := os.Stat(p); err != nil {
			matches, _ := filepath.Glob(filepath.Join(corpus, "*", filepath.Base(tt.file)))
			if len(matches) == 0 {
				t.Logf("%s not in the corpus", tt.file)
				continue
			}
			p = matches[0]
		}
		_, err := extract.Extract(context.Background(), p, filepath.Base(p), extract.Options{Scratch: t.TempDir()})
		var xe *extract.Error
		if !errors.As(err, &xe) || xe.Msg != tt.msg {
			t.Errorf("Extract(%s) = %v, want %q", tt.file, err, tt.msg)
		}
	}
	// A text file under a .docx name is opened as Word would open it
	// (tebunko rerouted it to Word), or fails with a per-file message.
	p := filepath.Join(t.TempDir(), "x.docx")
	os.WriteFile(p, []byte("just text"), 0o644)
	res, err := extract.Extract(context.Background(), p, "x.docx", extract.Options{Scratch: t.TempDir()})
	var xe *extract.Error
	var post *extract.Postponed
	switch {
	case err == nil:
		if len(res.Places) == 0 || res.Places[0].Lines[0] != "just text" {
			t.Errorf("Extract(text as .docx) = %+v", res.Places)
		}
	case !errors.As(err, &xe) && !errors.As(err, &post):
		t.Errorf("Extract(text as .docx) = %v, want a per-file *Error", err)
	}
}
