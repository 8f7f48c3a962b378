package ocr

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fumibako/fumibako/internal/proctree"
)

// Recognition settings (SettingsVersion names them; change it with them).
const (
	// MinConfidence drops a word Tesseract is less sure of (0–100).
	MinConfidence = 20
	// PoorConfidence: a horizontal reading whose kept words average
	// less is also tried as vertical writing.
	PoorConfidence = 75
	// MinOSDConfidence: a rotation OSD is less sure of is ignored.
	MinOSDConfidence = 2.0
	psmAuto          = 3
	psmVertical      = 5
	langHorizontal   = "jpn+eng"
	langVertical     = "jpn_vert"
)

// ErrLanguages is in the chain of New's error when Tesseract lacks a
// language fumibako needs (Debian: tesseract-ocr-jpn, -jpn-vert, -eng).
var ErrLanguages = errors.New("ocr: tesseract lacks a language")

// MsgLanguages is the run's line for ErrLanguages.
const MsgLanguages = "Tesseract に日本語（jpn・jpn_vert）か英語（eng）の言語データがないため画像の文字を読み取れません"

// Tesseract runs one tesseract program (doc.go). It is safe for
// concurrent use; each call writes its own image file.
type Tesseract struct {
	program string
	scratch string
	version string
	osd     bool
	seq     atomic.Int64
}

// New checks that program is a Tesseract with the languages fumibako
// needs, and returns it; page images go to scratch, which must exist.
// The checks run under CheckTimeout.
func New(program, scratch string) (*Tesseract, error) {
	ctx, cancel := context.WithTimeout(context.Background(), CheckTimeout)
	defer cancel()
	v, err := version(ctx, program)
	if err != nil {
		return nil, err
	}
	out, err := run(ctx, program, "--list-langs")
	if err != nil {
		return nil, fmt.Errorf("ocr: %s --list-langs: %w", program, err)
	}
	langs := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		langs[strings.TrimSpace(sc.Text())] = true
	}
	var missing []string
	for _, l := range []string{"jpn", "jpn_vert", "eng"} {
		if !langs[l] {
			missing = append(missing, l)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: %s has no %s", ErrLanguages, program, strings.Join(missing, ", "))
	}
	return &Tesseract{program: program, scratch: scratch, version: v, osd: langs["osd"]}, nil
}

// CheckTimeout bounds New's and Version's calls: a program that hangs on
// --version is no usable engine.
const CheckTimeout = 30 * time.Second

// Version returns the first line of program's --version ("tesseract
// 5.3.0"), for the run's log.
func Version(program string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), CheckTimeout)
	defer cancel()
	return version(ctx, program)
}

func version(ctx context.Context, program string) (string, error) {
	out, err := run(ctx, program, "--version")
	if err != nil {
		return "", fmt.Errorf("ocr: %s --version: %w", program, err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(strings.ToLower(line), "tesseract") {
		return "", fmt.Errorf("ocr: %s is no tesseract (--version says %q)", program, line)
	}
	return line, nil
}

// Version is the engine's --version line.
func (t *Tesseract) Version() string { return t.version }

// Program is the path of the tesseract program.
func (t *Tesseract) Program() string { return t.program }

// Recognize reads one page (doc.go "Orientation and vertical writing").
// It implements extract.Recognizer.
func (t *Tesseract) Recognize(ctx context.Context, img image.Image) ([]string, error) {
	g := fit(Gray(img), MaxPixels)
	if g.Rect.Empty() {
		return nil, nil
	}
	file, err := t.write(g)
	if err != nil {
		return nil, err
	}
	defer func() { os.Remove(file) }()
	best, err := t.read(ctx, file, langHorizontal, psmAuto)
	if err != nil || best.good() {
		return best.lines, err
	}
	if t.osd {
		if deg := t.orientation(ctx, file); deg != 0 {
			os.Remove(file)
			if file, err = t.write(rotate(g, deg)); err != nil {
				return nil, err
			}
			turned, err := t.read(ctx, file, langHorizontal, psmAuto)
			if err != nil {
				return nil, err
			}
			if turned.score > best.score {
				best = turned
			}
			if best.good() {
				return best.lines, nil
			}
		}
	}
	vertical, err := t.read(ctx, file, langVertical, psmVertical)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return best.lines, nil // no vertical reading (an older engine): keep what there is
	}
	if vertical.score > best.score {
		best = vertical
	}
	return best.lines, nil
}

// reading is one recognition's lines and score.
type reading struct {
	lines []string
	score float64
	chars int
	mean  float64
}

// good reports a reading that needs no other try.
func (r reading) good() bool { return r.chars > 0 && r.mean >= PoorConfidence }

func (t *Tesseract) read(ctx context.Context, file, lang string, psm int) (reading, error) {
	p, err := t.recognize(ctx, file, lang, psm)
	if err != nil {
		return reading{}, err
	}
	var r reading
	r.lines, r.score, r.chars, r.mean = p.lines(MinConfidence)
	return r, nil
}

// write puts g into a fresh PNG in the scratch folder.
func (t *Tesseract) write(g *image.Gray) (string, error) {
	name := filepath.Join(t.scratch, fmt.Sprintf("ocr-%d-%d.png", os.Getpid(), t.seq.Add(1)))
	f, err := os.Create(name)
	if err != nil {
		return "", fmt.Errorf("ocr: create page image: %w", err)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	err = enc.Encode(f, g)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("ocr: write page image %s: %w", name, err)
	}
	return name, nil
}

// orientation returns the clockwise rotation OSD asks for, 0 when it is
// unsure or fails (doc.go "Invocations").
func (t *Tesseract) orientation(ctx context.Context, file string) int {
	out, err := run(ctx, t.program, file, "stdout", "--psm", "0")
	if err != nil {
		return 0
	}
	rot, conf := -1, 0.0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "Rotate":
			rot, _ = strconv.Atoi(v)
		case "Orientation confidence":
			conf, _ = strconv.ParseFloat(v, 64)
		}
	}
	if conf < MinOSDConfidence || (rot != 90 && rot != 180 && rot != 270) {
		return 0
	}
	return rot
}

func (t *Tesseract) recognize(ctx context.Context, file, lang string, psm int) (page, error) {
	out, err := run(ctx, t.program, file, "stdout", "-l", lang, "--psm", strconv.Itoa(psm), "tsv")
	if err != nil {
		return page{}, fmt.Errorf("ocr: tesseract %s (%s, psm %d): %w", filepath.Base(file), lang, psm, err)
	}
	return parseTSV(out), nil
}

// outputCap bounds what is kept of one call's output: a page's TSV is
// tens of kilobytes.
const outputCap = 16 << 20

// run runs program with args as a child killed with its tree when ctx
// ends, and returns its stdout followed by its stderr (--list-langs
// writes to either, by version).
func run(ctx context.Context, program string, args ...string) ([]byte, error) {
	cmd := proctree.Command(ctx, program, args...)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		msg := strings.Join(strings.Fields(stderr.String()), " ")
		if len(msg) > 300 {
			msg = msg[:300]
		}
		return nil, fmt.Errorf("%w (%s)", err, msg)
	}
	return append(stdout.Bytes(), stderr.Bytes()...), nil
}

// capped is a buffer that keeps the first outputCap bytes.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := outputCap - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
