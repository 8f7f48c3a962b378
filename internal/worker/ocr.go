package worker

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ocrcache"
)

// sender writes the worker's lines (responses and interim messages) to
// the coordinator, one JSON object per line, never two at once.
type sender struct {
	mu   sync.Mutex
	enc  *json.Encoder
	w    io.Writer // what enc writes to
	buf  []byte    // held responses with their frames, reused
	held int       // responses in buf
	// timer writes the held responses holdFor after the first was held:
	// a file that takes long does not keep the answers of the files
	// before it back, so the coordinator's head of queue (whose deadline
	// runs, and which a hang is blamed on) is the file being extracted.
	timer *time.Timer
	err   error // the timer's write failed: the next send returns it
}

// holdFor is the longest a worker holds finished files' answers back, and
// holdBytes the most bytes it holds (sendResponse).
const (
	holdFor   = 5 * time.Millisecond
	holdBytes = 256 << 10
)

func (s *sender) send(v any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// An interim message belongs to the file after the held ones.
	if err := s.flushLocked(); err != nil {
		return err
	}
	return s.enc.Encode(v)
}

// sendResponse writes a Response, after the frame of its inline places
// when it has them (Response.Places), in one write with the responses it
// held: the frame's head, its bytes and the Response's line were three
// writes to the pipe, each a system call here and a wake-up of the
// coordinator's reader (issue 35). With more (another request is waiting)
// it holds the response back instead, up to Depth responses, holdBytes
// and holdFor, so that a group of small files is answered in one write
// and the coordinator wakes once for it.
func (s *sender) sendResponse(resp Response, more bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	line, err := json.Marshal(resp) // the bytes enc.Encode writes, less its LF
	if err != nil {
		return err
	}
	b := s.buf
	if resp.Inline {
		b = append(b, '#')
		b = strconv.AppendInt(b, int64(len(resp.Places)), 10)
		b = append(b, '\n')
		b = append(b, resp.Places...)
	}
	s.buf = append(append(b, line...), '\n')
	s.held++
	if more && s.held < Depth && len(s.buf) < holdBytes {
		if s.held == 1 {
			if s.timer == nil {
				s.timer = time.AfterFunc(holdFor, s.flushHeld)
			} else {
				s.timer.Reset(holdFor)
			}
		}
		return nil
	}
	return s.flushLocked()
}

// flushHeld is the timer's write of the held responses.
func (s *sender) flushHeld() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.flushLocked(); err != nil && s.err == nil {
		s.err = err
	}
}

// flushLocked writes the held responses.
func (s *sender) flushLocked() error {
	if s.held == 0 {
		return nil
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	_, err := s.w.Write(s.buf)
	s.held = 0
	if cap(s.buf) > holdBytes+frameKept {
		s.buf = nil
	} else {
		s.buf = s.buf[:0]
	}
	return err
}

// ocrSession equips one request's extraction with OCR (extract.OCR): the
// engine, the cache (read only), and the hand-over of each page recognized
// and of the progress as Interim messages on the response pipe.
type ocrSession struct {
	id     int64
	engine func() extract.Recognizer
	cache  string
	out    interface{ send(any) error }

	keys []string        // every key the file used, in order, once
	seen map[string]bool // keys already in keys
	lost error           // a page could not be handed over
}

func newOCRSession(id int64, engine func() extract.Recognizer, cache string, out *sender) *ocrSession {
	return &ocrSession{id: id, engine: engine, cache: cache, out: out, seen: map[string]bool{}}
}

// options is the extract.OCR of the request.
func (s *ocrSession) options() *extract.OCR {
	if s == nil {
		return nil
	}
	return &extract.OCR{
		Engine: s.engine,
		Cached: func(key string) ([]string, bool) {
			lines, ok := ocrcache.Read(s.cache, key)
			if ok {
				s.use(key)
			}
			return lines, ok
		},
		PageDone: s.pageDone,
		Progress: func(done, total int) {
			// A progress message that cannot be written is no loss: the
			// next page's hand-over reports the broken pipe.
			s.out.send(Interim{ID: s.id, OCRProgress: &OCRProgress{Done: done, Total: total}})
		},
	}
}

// preparing tells the coordinator that the file waits for its reader's
// one-time engine preparation (msg, the progress note), or that it is
// over (""; extract.Options.Preparing, issue 33). It goes on the same
// pipe as the OCR messages, so it is sent through the request's session,
// which exists with or without an OCR engine; a message that cannot be
// written is no loss (the answer reports the broken pipe).
func (s *ocrSession) preparing(msg string) {
	if s == nil {
		return
	}
	s.out.send(Interim{ID: s.id, Preparing: &msg})
}

// pageDone hands a page just recognized to the coordinator. It returns
// once the message is written to the pipe: the coordinator reads it, and
// stores the page, before the file's answer.
func (s *ocrSession) pageDone(key string, lines []string) error {
	if lines == nil {
		lines = []string{}
	}
	if err := s.out.send(Interim{ID: s.id, OCRPage: &OCRPage{Key: key, Lines: lines}}); err != nil {
		if s.lost == nil {
			s.lost = fmt.Errorf("worker: hand over OCR page %s: %w", key, err)
		}
		return s.lost
	}
	s.use(key)
	return nil
}

func (s *ocrSession) use(key string) {
	if !s.seen[key] {
		s.seen[key] = true
		s.keys = append(s.keys, key)
	}
}

// used lists the keys the file used.
func (s *ocrSession) used() []string {
	if s == nil {
		return nil
	}
	return s.keys
}
