package image_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/image"
	"github.com/fumibako/fumibako/internal/ocr"
	"github.com/fumibako/fumibako/internal/testcorpus"
)

// fakeEngine answers each page with its size and mean gray level, so a
// test sees which page image reached it.
type fakeEngine struct{ calls int }

func (f *fakeEngine) Recognize(ctx context.Context, img image.Image) ([]string, error) {
	f.calls++
	b := img.Bounds()
	g := ocr.Gray(img)
	sum := 0
	for _, v := range g.Pix {
		sum += int(v)
	}
	return []string{fmt.Sprintf("%dx%d", b.Dx(), b.Dy()), fmt.Sprintf("mean %d", sum/len(g.Pix))}, nil
}

// seam records what a reader does through extract.OCR.
type seam struct {
	engine  *fakeEngine
	cache   map[string][]string
	events  []string
	doneErr error
}

func (s *seam) ocr(engine bool) *extract.OCR {
	o := &extract.OCR{
		Cached: func(key string) ([]string, bool) {
			l, ok := s.cache[key]
			if ok {
				s.events = append(s.events, "cached")
			}
			return l, ok
		},
		PageDone: func(key string, lines []string) error {
			s.events = append(s.events, "done")
			if s.cache == nil {
				s.cache = map[string][]string{}
			}
			s.cache[key] = lines
			return s.doneErr
		},
		Progress: func(done, total int) { s.events = append(s.events, fmt.Sprintf("%d/%d", done, total)) },
	}
	if engine {
		s.engine = &fakeEngine{}
		o.Engine = func() extract.Recognizer { return s.engine }
	}
	return o
}

func gray(w, h int, v uint8) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = v
	}
	return g
}

func encode(t *testing.T, kind string, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch kind {
	case "png":
		err = png.Encode(&b, m)
	case "jpeg":
		err = jpeg.Encode(&b, m, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bmpOf writes an 8-bit gray BMP (a palette of 256 grays), bottom-up.
func bmpOf(g *image.Gray) []byte {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	stride := (w + 3) &^ 3
	var b bytes.Buffer
	le := binary.LittleEndian
	off := 14 + 40 + 256*4
	b.WriteString("BM")
	binary.Write(&b, le, uint32(off+stride*h))
	binary.Write(&b, le, uint32(0))
	binary.Write(&b, le, uint32(off))
	for _, v := range []any{uint32(40), int32(w), int32(h), uint16(1), uint16(8), uint32(0), uint32(stride * h), int32(2835), int32(2835), uint32(256), uint32(0)} {
		binary.Write(&b, le, v)
	}
	for i := 0; i < 256; i++ {
		b.Write([]byte{byte(i), byte(i), byte(i), 0})
	}
	row := make([]byte, stride)
	for y := h - 1; y >= 0; y-- {
		copy(row, g.Pix[y*g.Stride:y*g.Stride+w])
		b.Write(row)
	}
	return b.Bytes()
}

func write(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func places(r *extract.Result) []string {
	var out []string
	for _, p := range r.Places {
		out = append(out, p.Name+": "+strings.Join(p.Lines, " | "))
	}
	return out
}

// TestReadImages: each format's pages reach the engine once, in order,
// under the place names of issue 29, with the seam's calls in order:
// progress before each page and after the last, PageDone after each page
// recognized, the cache instead of the engine for a page seen before.
func TestReadImages(t *testing.T) {
	fax := testcorpus.ScanTIFF([]*image.Gray{gray(40, 30, 200), gray(50, 20, 100), gray(10, 10, 0)}, 200)
	for _, tc := range []struct {
		name   string
		file   []byte
		places []string
		events []string
	}{
		{"a.png", encode(t, "png", gray(64, 48, 255)), []string{"画像（OCR）: 64x48 | mean 255"}, []string{"0/1", "done", "1/1"}},
		{"a.jpg", encode(t, "jpeg", gray(64, 48, 0)), []string{"画像（OCR）: 64x48 | mean 0"}, []string{"0/1", "done", "1/1"}},
		{"a.jpeg", encode(t, "jpeg", gray(8, 8, 0)), []string{"画像（OCR）: 8x8 | mean 0"}, []string{"0/1", "done", "1/1"}},
		{"a.bmp", bmpOf(gray(33, 7, 128)), []string{"画像（OCR）: 33x7 | mean 128"}, []string{"0/1", "done", "1/1"}},
		{"one.tif", testcorpus.ScanTIFF([]*image.Gray{gray(20, 20, 50)}, 300), []string{"画像（OCR）: 20x20 | mean 50"}, []string{"0/1", "done", "1/1"}},
		{"fax.tiff", fax, []string{
			// 200 dpi: read as scanned (ocr.Prepare).
			"画像001（OCR）: 40x30 | mean 200", "画像002（OCR）: 50x20 | mean 100", "画像003（OCR）: 10x10 | mean 0",
		}, []string{"0/3", "done", "1/3", "done", "2/3", "done", "3/3"}},
		// Bilevel, as fax machines write it (WhiteIsZero; no resolution).
		{"fax-1bit.tif", tiff1bit(16, 4), []string{"画像（OCR）: 16x4 | mean 0"}, []string{"0/1", "done", "1/1"}},
		// The extension does not choose the decoder: a PNG named .tif.
		{"png.tif", encode(t, "png", gray(5, 5, 255)), []string{"画像（OCR）: 5x5 | mean 255"}, []string{"0/1", "done", "1/1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &seam{}
			res, err := extract.Extract(context.Background(), write(t, tc.name, tc.file), tc.name, extract.Options{OCR: s.ocr(true)})
			if err != nil {
				t.Fatal(err)
			}
			if got := places(res); !slices.Equal(got, tc.places) {
				t.Errorf("places = %q, want %q", got, tc.places)
			}
			if !slices.Equal(s.events, tc.events) {
				t.Errorf("events = %q, want %q", s.events, tc.events)
			}
			if res.OCRPages != len(tc.places) || res.OCRWaiting != 0 {
				t.Errorf("OCRPages, OCRWaiting = %d, %d, want %d, 0", res.OCRPages, res.OCRWaiting, len(tc.places))
			}
			// Read again: every page from the cache, none recognized.
			calls := s.engine.calls
			s.events = nil
			res2, err := extract.Extract(context.Background(), write(t, tc.name, tc.file), tc.name, extract.Options{OCR: &extract.OCR{Engine: func() extract.Recognizer { return s.engine }, Cached: func(k string) ([]string, bool) { l, ok := s.cache[k]; return l, ok }}})
			if err != nil {
				t.Fatal(err)
			}
			if s.engine.calls != calls || !slices.Equal(places(res2), tc.places) || res2.OCRPages != len(tc.places) {
				t.Errorf("second read: engine calls %d → %d, places %q, OCRPages %d", calls, s.engine.calls, places(res2), res2.OCRPages)
			}
		})
	}
}

// withPHYs puts a pHYs chunk (dpi, in pixels per metre) after a PNG's
// IHDR.
func withPHYs(b []byte, dpi int) []byte {
	var c bytes.Buffer
	data := make([]byte, 9)
	ppm := uint32(float64(dpi)/0.0254 + 0.5)
	binary.BigEndian.PutUint32(data[0:], ppm)
	binary.BigEndian.PutUint32(data[4:], ppm)
	data[8] = 1
	binary.Write(&c, binary.BigEndian, uint32(9))
	crc := crc32.NewIEEE()
	crc.Write([]byte("pHYs"))
	crc.Write(data)
	c.WriteString("pHYs")
	c.Write(data)
	binary.Write(&c, binary.BigEndian, crc.Sum32())
	at := 8 + 8 + 13 + 4 // signature, IHDR
	return slices.Concat(b[:at], c.Bytes(), b[at:])
}

// withJFIF puts a JFIF APP0 segment stating dpi after a JPEG's SOI.
func withJFIF(b []byte, dpi int) []byte {
	app0 := []byte{0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 1, byte(dpi >> 8), byte(dpi), byte(dpi >> 8), byte(dpi), 0, 0}
	return slices.Concat(b[:2], app0, b[2:])
}

// TestResolution: a page is brought to about 300 dpi from the resolution
// its file states (outside 250–400 dpi), each way, so a fax in standard
// mode gets square pixels back; a file that states none, or 72 or 96 dpi
// (what software writes when it knows none), is left at its size.
func TestResolution(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"fax standard mode.tif", testcorpus.ScanTIFFRes([]*image.Gray{gray(204, 98, 0)}, 204, 98), "204x204"},
		{"200 dpi.tif", testcorpus.ScanTIFF([]*image.Gray{gray(200, 100, 0)}, 200), "200x100"},
		{"600 dpi.tif", testcorpus.ScanTIFF([]*image.Gray{gray(600, 300, 0)}, 600), "300x150"},
		{"300 dpi.tif", testcorpus.ScanTIFF([]*image.Gray{gray(60, 30, 0)}, 300), "60x30"},
		{"150 dpi.png", withPHYs(encode(t, "png", gray(150, 100, 0)), 150), "300x200"},
		{"72 dpi.png", withPHYs(encode(t, "png", gray(150, 100, 0)), 72), "150x100"},
		{"none.png", encode(t, "png", gray(150, 100, 0)), "150x100"},
		{"1200 dpi.jpg", withJFIF(encode(t, "jpeg", gray(1200, 400, 0)), 1200), "300x100"},
		{"96 dpi.jpg", withJFIF(encode(t, "jpeg", gray(64, 32, 0)), 96), "64x32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &seam{}
			res, err := extract.Extract(context.Background(), write(t, "f"+filepath.Ext(tc.name), tc.file), tc.name, extract.Options{OCR: s.ocr(true)})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Places) != 1 || res.Places[0].Lines[0] != tc.want {
				t.Errorf("engine saw %q, want %s", places(res), tc.want)
			}
		})
	}
}

// tiff1bit writes a one-page bilevel TIFF (1 bit a pixel, WhiteIsZero,
// uncompressed) of w×h black pixels, big-endian as some fax software
// writes it.
func tiff1bit(w, h int) []byte {
	be := binary.BigEndian
	stride := (w + 7) / 8
	var b bytes.Buffer
	b.WriteString("MM\x00*")
	binary.Write(&b, be, uint32(8))
	type ent struct {
		tag, typ uint16
		val      uint32
	}
	ents := []ent{{256, 4, uint32(w)}, {257, 4, uint32(h)}, {258, 3, 1}, {259, 3, 1}, {262, 3, 0},
		{273, 4, uint32(8 + 2 + 9*12 + 4)}, {277, 3, 1}, {278, 4, uint32(h)}, {279, 4, uint32(stride * h)}}
	binary.Write(&b, be, uint16(len(ents)))
	for _, e := range ents {
		binary.Write(&b, be, e.tag)
		binary.Write(&b, be, e.typ)
		binary.Write(&b, be, uint32(1))
		if e.typ == 3 {
			binary.Write(&b, be, uint16(e.val))
			binary.Write(&b, be, uint16(0))
		} else {
			binary.Write(&b, be, e.val)
		}
	}
	binary.Write(&b, be, uint32(0))
	b.Write(bytes.Repeat([]byte{0xff}, stride*h))
	return b.Bytes()
}

// TestReadImagesWithoutOCR: no OCR (the root does not read images): no
// places; no engine: pages counted as waiting, none decoded, success.
func TestReadImagesWithoutOCR(t *testing.T) {
	fax := testcorpus.ScanTIFF([]*image.Gray{gray(4, 4, 0), gray(4, 4, 0)}, 200)
	p := write(t, "fax.tif", fax)
	res, err := extract.Extract(context.Background(), p, "fax.tif", extract.Options{})
	if err != nil || len(res.Places) != 0 || res.OCRWaiting != 0 {
		t.Errorf("no OCR: %+v, %v; want no places, nothing waiting", res, err)
	}
	s := &seam{}
	res, err = extract.Extract(context.Background(), p, "fax.tif", extract.Options{OCR: s.ocr(false)})
	if err != nil || len(res.Places) != 0 || res.OCRWaiting != 2 || res.OCRPages != 0 {
		t.Errorf("no engine: %+v, %v; want 2 pages waiting", res, err)
	}
}

// TestPageDoneStops: an error handing a page over stops the reader with
// that error (the run is ending).
func TestPageDoneStops(t *testing.T) {
	stop := errors.New("coordinator gone")
	s := &seam{doneErr: stop}
	fax := testcorpus.ScanTIFF([]*image.Gray{gray(4, 4, 0), gray(4, 4, 9)}, 200)
	_, err := extract.Extract(context.Background(), write(t, "f.tif", fax), "f.tif", extract.Options{OCR: s.ocr(true)})
	if !errors.Is(err, stop) || s.engine.calls != 1 {
		t.Errorf("err = %v after %d pages, want %v after 1", err, s.engine.calls, stop)
	}
}

// TestCorruptImages: files that are no image, or broken ones, fail with
// the corrupt-file message; a TIFF with a broken page among good ones
// keeps the good ones and logs the broken one.
func TestCorruptImages(t *testing.T) {
	good := encode(t, "png", gray(16, 16, 10))
	le := binary.LittleEndian
	loop := testcorpus.ScanTIFF([]*image.Gray{gray(4, 4, 0), gray(4, 4, 0)}, 200)
	// Point the second IFD's next offset back at the first.
	first := int64(le.Uint32(loop[4:]))
	second := int64(le.Uint32(loop[first+2+12*12:]))
	le.PutUint32(loop[second+2+12*12:], uint32(first))
	outside := slices.Clone(loop[:8])
	le.PutUint32(outside[4:], 1<<30)
	// A TIFF whose second page's strip points outside the file.
	strip := testcorpus.ScanTIFF([]*image.Gray{gray(4, 4, 7), gray(4, 4, 0)}, 200)
	for e := 0; e < 12; e++ {
		at := second + 2 + int64(e)*12
		if le.Uint16(strip[at:]) == 279 {
			le.PutUint32(strip[at+8:], 1<<30)
		}
	}
	// A TIFF whose second page cannot be decoded (compression 99).
	badPage := testcorpus.ScanTIFF([]*image.Gray{gray(4, 4, 7), gray(4, 4, 0)}, 200)
	for e := 0; e < 12; e++ {
		at := second + 2 + int64(e)*12
		if le.Uint16(badPage[at:]) == 259 {
			le.PutUint16(badPage[at+8:], 99)
		}
	}
	for _, tc := range []struct {
		name, file string
		data       []byte
		want       string // message prefix; "" = success
		places     int
	}{
		{"not an image", "a.png", []byte("hello, this is text"), extract.MsgCorrupt, 0},
		{"cut PNG", "a.png", good[:len(good)/2], extract.MsgCorrupt, 0},
		{"cut JPEG", "a.jpg", encode(t, "jpeg", gray(64, 64, 3))[:200], extract.MsgCorrupt, 0},
		{"PNG header only", "a.png", good[:8], extract.MsgCorrupt, 0},
		{"TIFF loop", "a.tif", loop, extract.MsgCorrupt, 0},
		{"TIFF IFD outside", "a.tif", outside, extract.MsgCorrupt, 0},
		{"TIFF strip outside", "a.tif", strip, extract.MsgCorrupt, 0},
		{"TIFF bad page", "a.tif", badPage, "", 1},
		{"BigTIFF", "a.tif", []byte("II+\x00\x08\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00"), extract.MsgCorrupt, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &seam{}
			res, err := extract.Extract(context.Background(), write(t, tc.file, tc.data), tc.file, extract.Options{OCR: s.ocr(true)})
			if tc.want == "" {
				if err != nil || len(res.Places) != tc.places || len(res.Log) != 1 {
					t.Fatalf("Extract = %+v, %v; want %d places and a log line", res, err, tc.places)
				}
				return
			}
			var e *extract.Error
			if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, tc.want) {
				t.Fatalf("Extract = %v, want a failure %q", err, tc.want)
			}
		})
	}
}

// pngHeader writes a valid PNG of w×h gray pixels, all white, without
// holding the pixels: the rows go straight into the zlib stream.
func pngHuge(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, c.Sum32())
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 0 // 8-bit gray
	chunk("IHDR", ihdr[:])
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	row := make([]byte, w+1)
	for i := 1; i < len(row); i++ {
		row[i] = 0xff
	}
	for y := 0; y < h; y++ {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// jpegHeader is a JPEG that declares w×h pixels (a frame header, then
// the start of a scan with no data): enough for DecodeConfig, nothing to
// decode.
func jpegHeader(w, h int) []byte {
	return []byte{0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0,
		0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0xff, 0xd9}
}

// TestHugeImages: a 10,000 × 10,000 image (100 Mpx, 400 MB as RGBA) is
// refused from its header with a clear message, in bounded memory.
func TestHugeImages(t *testing.T) {
	huge := pngHuge(t, 10000, 10000)
	tif := testcorpus.ScanTIFF([]*image.Gray{gray(4, 4, 0)}, 200)
	le := binary.LittleEndian
	ifd := int64(le.Uint32(tif[4:]))
	for e := 0; e < 12; e++ {
		at := ifd + 2 + int64(e)*12
		switch le.Uint16(tif[at:]) {
		case 256, 257:
			le.PutUint32(tif[at+8:], 10000)
		}
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"huge.png", huge},
		{"huge.jpg", jpegHeader(10000, 10000)},
		{"huge.tif", tif},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(t, tc.name, tc.data)
			s := &seam{}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := extract.Extract(context.Background(), p, tc.name, extract.Options{OCR: s.ocr(true)})
			runtime.ReadMemStats(&after)
			var e *extract.Error
			if !errors.As(err, &e) || e.Msg != ocr.MsgTooLarge {
				t.Fatalf("Extract = %v, want %q", err, ocr.MsgTooLarge)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%s: %d bytes allocated reading a 10000×10000 image", tc.name, alloc)
			if alloc > 16<<20 {
				t.Errorf("allocated %d bytes, want under 16 MiB", alloc)
			}
			if s.engine.calls != 0 {
				t.Errorf("the engine saw the image")
			}
		})
	}
}
