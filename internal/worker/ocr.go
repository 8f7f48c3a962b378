package worker

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/ocrcache"
)

// sender writes the worker's lines (responses and interim messages) to
// the coordinator, one JSON object per line, never two at once.
type sender struct {
	mu  sync.Mutex
	enc *json.Encoder
	w   io.Writer // what enc writes to
	buf []byte    // a response with its frame, reused
}

func (s *sender) send(v any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc.Encode(v)
}

// sendResponse writes a Response, after the frame of its inline places
// when it has them (Response.Places), in one write: the frame's head, its
// bytes and the Response's line were three writes to the pipe, each a
// system call here and a wake-up of the coordinator's reader (issue 35).
func (s *sender) sendResponse(resp Response) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !resp.Inline {
		return s.enc.Encode(resp)
	}
	line, err := json.Marshal(resp) // the bytes enc.Encode writes, less its LF
	if err != nil {
		return err
	}
	b := append(s.buf[:0], '#')
	b = strconv.AppendInt(b, int64(len(resp.Places)), 10)
	b = append(b, '\n')
	b = append(b, resp.Places...)
	b = append(append(b, line...), '\n')
	s.buf = b
	_, err = s.w.Write(b)
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
