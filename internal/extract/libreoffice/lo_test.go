package libreoffice

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// Tests with a real LibreOffice; each skips when it is not installed.

// checkNoSoffice fails the test when a process whose command line mentions
// dir (our scratch folders and profiles) is still running.
func checkNoSoffice(t *testing.T, dir string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	var out []byte
	for i := 0; i < 20; i++ {
		out, _ = exec.Command("pgrep", "-a", "-f", dir).Output()
		if len(strings.TrimSpace(string(out))) == 0 {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Errorf("processes survived in %s:\n%s", dir, out)
}

func TestLegacyLibreOffice(t *testing.T) {
	soffice := lgNeedSoffice(t)
	root := t.TempDir()
	defer checkNoSoffice(t, root)
	fx := lgFixtures(t, soffice, root)
	wantPlaces := map[string][]string{".xls": {"売上"}, ".doc": {"ページ001（目安）"}, ".ppt": {"スライド001", "スライド002"}}

	// The LibreOffice path on its own (no native reader), then the public
	// path, which may take a native reader first.
	for _, via := range []string{"libreoffice", "extract"} {
		for _, ext := range []string{".xls", ".doc", ".ppt"} {
			f := fx[ext]
			t.Run(via+ext, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				opt := extract.Options{Scratch: filepath.Join(root, "scratch-"+via+ext[1:])}
				os.MkdirAll(opt.Scratch, 0o755)
				var res *extract.Result
				var err error
				if via == "libreoffice" {
					res, err = ReadLegacyWith(ctx, f.path, opt, nil)
				} else {
					res, err = extract.Extract(ctx, f.path, filepath.Base(f.path), opt)
				}
				if err != nil {
					t.Fatalf("extract %s: %v", filepath.Base(f.path), err)
				}
				text := lgAllLines(res)
				for _, tok := range f.tokens {
					if !strings.Contains(text, tok) {
						t.Errorf("%s: %q not found in\n%s", filepath.Base(f.path), tok, text)
					}
				}
				var names []string
				for _, p := range res.Places {
					names = append(names, p.Name)
				}
				if via == "libreoffice" && strings.Join(names, ",") != strings.Join(wantPlaces[ext], ",") {
					t.Errorf("%s: places %q, want %q", filepath.Base(f.path), names, wantPlaces[ext])
				}
			})
		}
	}

	t.Run("batch", func(t *testing.T) {
		bad := filepath.Join(root, "bad.doc")
		os.WriteFile(bad, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 truncated compound file"), 0o644)
		second := filepath.Join(root, "sub", "memo.doc") // same base name as the first
		os.MkdirAll(filepath.Dir(second), 0o755)
		b, _ := os.ReadFile(fx[".doc"].path)
		os.WriteFile(second, b, 0o644)
		files := []string{fx[".doc"].path, bad, second}
		scratch := filepath.Join(root, "batch")
		os.MkdirAll(scratch, 0o755)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		got, err := ConvertBatch(ctx, soffice, files, "docx", scratch)
		if err != nil {
			t.Fatalf("ConvertBatch: %v", err)
		}
		// LibreOffice imports unrecognised bytes as plain text, so the bad
		// file may or may not come back; the good ones must, each under
		// its own name.
		if got[fx[".doc"].path] == "" || got[second] == "" || got[fx[".doc"].path] == got[second] {
			t.Fatalf("ConvertBatch = %v, want both memo.doc files converted separately", got)
		}
		for _, f := range []string{fx[".doc"].path, second} {
			res, err := ReadConverted(ctx, got[f], "docx", extract.Options{Scratch: scratch})
			if err != nil || !strings.Contains(lgAllLines(res), "稟議書") {
				t.Errorf("ReadConverted(%s) = %v, %v, want 稟議書", got[f], res, err)
			}
		}
	})
}

// TestLegacyCorpus extracts every legacy file of the shared corpus: each
// ends with places or an *Error (the password or IRM text for protected
// files) within its deadline, and no LibreOffice process survives. With
// -short only the protected files and a few others run.
func TestLegacyCorpus(t *testing.T) {
	lgNeedSoffice(t)
	corpus := testutil.Corpus(t)
	var files []string
	for _, ext := range []string{".xls", ".xlsb", ".doc", ".ppt"} {
		m, _ := filepath.Glob(filepath.Join(corpus, "*", "*"+ext))
		files = append(files, m...)
	}
	sort.Strings(files)
	if testing.Short() {
		var some []string
		perExt := map[string]int{}
		for _, f := range files {
			ext := filepath.Ext(f)
			if strings.Contains(f, "protected") || perExt[ext] < 2 {
				some = append(some, f)
				perExt[ext]++
			}
		}
		files = some
	}
	root := t.TempDir()
	defer checkNoSoffice(t, root)
	wantMsg := map[string]string{
		"pass_protected.xlsb":              extract.MsgPassword,
		"testEXCEL_protected_passtika.xls": extract.MsgPassword,
		"testWORD_protected_passtika.doc":  extract.MsgPassword,
		"testPPT_protected_passtika.ppt":   extract.MsgPassword,
		"testWORD_protected_drm.doc":       extract.MsgRights,
		"OOM_alloc3.xls":                   extract.MsgCorrupt, // damaged compound file
	}
	var summary []string
	counts := map[string]int{}
	var total time.Duration
	for i, f := range files {
		name := filepath.Base(f)
		scratch := filepath.Join(root, "w")
		os.RemoveAll(filepath.Join(scratch, "lo-in"))
		os.MkdirAll(scratch, 0o755)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		start := time.Now()
		res, err := extract.Extract(ctx, f, name, extract.Options{Scratch: scratch})
		took := time.Since(start)
		cancel()
		total += took
		outcome := ""
		var e *extract.Error
		var p *extract.Postponed
		switch {
		case err == nil:
			lines := 0
			for _, pl := range res.Places {
				lines += len(pl.Lines)
			}
			outcome = fmt.Sprintf("%d places, %d lines", len(res.Places), lines)
			counts["places"]++
		case errors.As(err, &e):
			outcome = "error: " + e.Msg
			counts["error"]++
		case errors.As(err, &p):
			outcome = "postponed: " + p.Msg
			t.Errorf("%s: postponed with LibreOffice installed: %v", name, err)
		default:
			outcome = "FAIL: " + err.Error()
			t.Errorf("%s: %v, want places or an *Error", name, err)
		}
		if w, ok := wantMsg[name]; ok && (e == nil || e.Msg != w) {
			t.Errorf("%s: %v, want %q", name, err, w)
		}
		summary = append(summary, fmt.Sprintf("%3d %-50s %6.2fs  %s", i+1, filepath.Base(filepath.Dir(f))+"/"+name, took.Seconds(), outcome))
	}
	t.Logf("legacy corpus: %d files, %d with places, %d failed with a message, %.1fs in all\n%s",
		len(files), counts["places"], counts["error"], total.Seconds(), strings.Join(summary, "\n"))
}
