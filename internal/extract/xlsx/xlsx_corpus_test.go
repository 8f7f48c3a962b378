package xlsx_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestXlsxCorpus reads every .xlsx and .xlsm of the shared corpus: each
// must give places (or none, for a workbook without text) or fail with an
// *extract.Error, never panic or hang. Encrypted packages must fail with
// the password message.
func TestXlsxCorpus(t *testing.T) {
	corpus := testutil.Corpus(t)
	var files []string
	err := filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if !d.IsDir() && (ext == ".xlsx" || ext == ".xlsm") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		testutil.CorpusMissing(t, "no .xlsx/.xlsm files in the corpus %s", corpus)
	}
	sort.Strings(files)
	var ok, empty int
	failures := map[string]int{}
	for _, path := range files {
		rel, _ := filepath.Rel(corpus, path)
		head := make([]byte, 8)
		if f, err := os.Open(path); err == nil {
			f.Read(head)
			f.Close()
		}
		encrypted := bytes.Equal(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
		type outcome struct {
			res *extract.Result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			res, err := extract.Extract(context.Background(), path, filepath.Base(path), extract.Options{Scratch: t.TempDir()})
			done <- outcome{res, err}
		}()
		var o outcome
		select {
		case o = <-done:
		case <-time.After(2 * time.Minute):
			t.Fatalf("%s: no result after 2 minutes", rel)
		}
		var fe *extract.Error
		switch {
		case o.err == nil && len(o.res.Places) == 0:
			empty++
			t.Logf("%s: no text", rel)
		case o.err == nil:
			ok++
			lines := 0
			for _, p := range o.res.Places {
				lines += len(p.Lines)
			}
			t.Logf("%s: %d places, %d lines", rel, len(o.res.Places), lines)
		case errors.As(o.err, &fe):
			msg := fe.Msg
			if i := strings.Index(msg, "（詳細"); i >= 0 {
				msg = msg[:i]
			}
			failures[msg]++
			t.Logf("%s: %s (%v)", rel, fe.Msg, fe.Cause)
		default:
			t.Errorf("%s: error %v is not an *extract.Error", rel, o.err)
		}
		if encrypted && (fe == nil || fe.Msg != extract.MsgPassword) {
			t.Errorf("%s: encrypted package gave %v, want %q", rel, o.err, extract.MsgPassword)
		}
	}
	t.Logf("corpus: %d files, %d with places, %d without text, failures %v", len(files), ok, empty, failures)
}
