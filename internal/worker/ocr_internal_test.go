package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ocrcache"
	"github.com/fumibako/fumibako/internal/workspace"
)

// ocrPages plays st's OCR pages for req as a real worker sends them:
// ocrProgress before each page, ocrPage after it, progress after the
// last. It reports false when the worker was killed meanwhile.
func (p *fakeProc) ocrPages(st step, req Request) bool {
	send := func(m Interim) {
		b, _ := json.Marshal(m)
		p.out <- b
	}
	if st.prepare > 0 {
		note, done := "PDF を読む準備をしています（初回だけ）", ""
		send(Interim{ID: req.ID, Preparing: &note})
		select {
		case <-p.killed:
			return false
		case <-time.After(st.prepare):
		}
		send(Interim{ID: req.ID, Preparing: &done})
	}
	for i := 0; i < st.pages; i++ {
		send(Interim{ID: req.ID, OCRProgress: &OCRProgress{Done: i, Total: st.pages}})
		select {
		case <-p.killed:
			return false
		case <-time.After(st.pageTime):
		}
		send(Interim{ID: req.ID, OCRPage: &OCRPage{Key: fmt.Sprintf("page%d", i+1), Lines: []string{"text"}}})
	}
	if st.pages > 0 {
		send(Interim{ID: req.ID, OCRProgress: &OCRProgress{Done: st.pages, Total: st.pages}})
	}
	return true
}

// TestPipelineOCR: interim messages reach Config.Interim in order and
// before their request's result; each page started gets the per-page
// allowance past the file's deadline; a page that outlasts it is killed
// with the OCR message, its earlier pages passed on.
func TestPipelineOCR(t *testing.T) {
	tests := []struct {
		name    string
		step    step
		want    string   // the outcome of request 1
		interim []string // what Interim saw for request 1
	}{
		{"long scan within the allowance", step{pages: 5, pageTime: 100 * time.Millisecond, answer: &Response{OK: true, TSVCount: 1}},
			"finished 1", []string{"0/5", "page1", "1/5", "page2", "2/5", "page3", "3/5", "page4", "4/5", "page5", "5/5"}},
		{"a page that hangs", step{pages: 3, pageTime: 100 * time.Millisecond, hang: true},
			"timeout " + MsgOCRPageTimeout(250*time.Millisecond), []string{"0/3", "page1", "1/3", "page2", "2/3", "page3", "3/3"}},
		// Issue 33: the engine's one-time preparation (longer than the
		// file's deadline) does not count against the file, and the
		// deadline starts again after it.
		{"an engine prepared first", step{prepare: 400 * time.Millisecond, pages: 1, pageTime: 150 * time.Millisecond, answer: &Response{OK: true, TSVCount: 1}},
			"finished 1", []string{"prep", "done", "0/1", "page1", "1/1"}},
		{"a hang after the preparation", step{prepare: 300 * time.Millisecond, hang: true},
			"timeout " + MsgTimeout(200*time.Millisecond), []string{"prep", "done"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			cfg := Config{Timeout: 200 * time.Millisecond, OCRPageTimeout: 250 * time.Millisecond,
				Interim: func(req Request, m Interim) {
					if req.ID != 1 {
						return
					}
					mu.Lock()
					defer mu.Unlock()
					switch {
					case m.OCRPage != nil:
						seen = append(seen, m.OCRPage.Key)
					case m.OCRProgress != nil:
						seen = append(seen, fmt.Sprintf("%d/%d", m.OCRProgress.Done, m.OCRProgress.Total))
					case m.Preparing != nil && *m.Preparing != "":
						seen = append(seen, "prep")
					case m.Preparing != nil:
						seen = append(seen, "done")
					}
				}}
			s, _ := fakeSlot(cfg, func(_ int, req Request) step {
				if req.ID == 1 {
					return tt.step
				}
				return ok(int(req.ID))
			}, nil)
			got := runPipeline(s, 2, nil)
			if got[0] != tt.want || got[1] != "finished 2" {
				t.Errorf("results %q, want [%q, finished 2]", got, tt.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Join(seen, " ") != strings.Join(tt.interim, " ") {
				t.Errorf("interim %q, want %q", seen, tt.interim)
			}
		})
	}
}

// fakeEngine recognizes any page as one line.
type fakeEngine struct{ calls *int }

func (e fakeEngine) Recognize(ctx context.Context, img image.Image) ([]string, error) {
	*e.calls++
	return []string{"読んだ"}, nil
}

// TestServeOCR: the worker equips a request with OCR: a cached page is
// read from the cache and not recognized, a new one is recognized and
// handed over (ocrPage, after its progress) before the Response, which
// lists both keys; with no engine the page waits.
func TestServeOCR(t *testing.T) {
	cached, fresh := strings.Repeat("a", 64), strings.Repeat("b", 64)
	cache := t.TempDir()
	p := workspace.OCRCacheEntry(cache, cached)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, ocrcache.Encode([]string{"前に読んだ"}), 0o644)
	defer func(f func(context.Context, string, string, extract.Options) (*extract.Result, error)) {
		extractFile = f
	}(extractFile)
	extractFile = func(ctx context.Context, path, name string, opt extract.Options) (*extract.Result, error) {
		o, res := opt.OCR, &extract.Result{}
		for i, key := range []string{cached, fresh} {
			o.Progress(i, 2)
			if lines, ok := o.Cached(key); ok {
				res.Places = append(res.Places, extract.Place{Name: fmt.Sprintf("ページ%03d", i+1), Lines: lines})
				res.OCRPages++
				continue
			}
			if o.Engine == nil || o.Engine() == nil {
				res.OCRWaiting++
				continue
			}
			lines, err := o.Engine().Recognize(ctx, nil)
			if err != nil {
				return nil, err
			}
			if err := o.PageDone(key, lines); err != nil {
				return nil, err
			}
			res.Places = append(res.Places, extract.Place{Name: fmt.Sprintf("ページ%03d", i+1), Lines: lines})
			res.OCRPages++
		}
		o.Progress(2, 2)
		return res, nil
	}
	tests := []struct {
		name    string
		engine  bool
		lines   []string // the kinds of line written, in order
		keys    []string
		pages   int
		waiting int
		calls   int
	}{
		{"engine", true, []string{"0/2", "1/2", "page " + fresh, "2/2", "response"}, []string{cached, fresh}, 2, 0, 1},
		{"no engine", false, []string{"0/2", "1/2", "2/2", "response"}, []string{cached}, 1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			cfg := ServeConfig{Scratch: t.TempDir(), OCRCache: cache}
			if tt.engine {
				cfg.OCR = func() extract.Recognizer { return fakeEngine{&calls} }
			}
			req := fmt.Sprintf(`{"id":1,"path":"x","name":"scan.pdf","stage":%q}`+"\n", filepath.Join(t.TempDir(), "stage"))
			var out bytes.Buffer
			if err := Serve(context.Background(), strings.NewReader(req), &out, cfg); err != nil {
				t.Fatal(err)
			}
			var kinds []string
			var resp Response
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var wl wireLine
				if err := json.Unmarshal([]byte(l), &wl); err != nil {
					t.Fatalf("line %q: %v", l, err)
				}
				switch {
				case wl.OCRProgress != nil:
					kinds = append(kinds, fmt.Sprintf("%d/%d", wl.OCRProgress.Done, wl.OCRProgress.Total))
				case wl.OCRPage != nil:
					kinds = append(kinds, "page "+wl.OCRPage.Key)
				default:
					kinds, resp = append(kinds, "response"), wl.Response
				}
			}
			if strings.Join(kinds, ",") != strings.Join(tt.lines, ",") {
				t.Errorf("lines %q, want %q", kinds, tt.lines)
			}
			if !resp.OK || strings.Join(resp.OCRKeys, ",") != strings.Join(tt.keys, ",") || resp.OCRPages != tt.pages || resp.OCRWaiting != tt.waiting {
				t.Errorf("response %+v, want keys %v, %d pages, %d waiting", resp, tt.keys, tt.pages, tt.waiting)
			}
			if calls != tt.calls {
				t.Errorf("recognizer calls %d, want %d", calls, tt.calls)
			}
		})
	}
}
