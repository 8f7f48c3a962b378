package testcorpus

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Scanned pages for the OCR tests (issue 29): known Japanese text rendered
// with a Japanese font into page images the way a scanner or a fax
// machine delivers them: 200–300 dpi, noise, a skew of up to ±2°, JPEG
// artefacts, vertical writing (columns right to left), pages turned by 90°
// or 180°, two columns. Each page plants 4-character words that a search
// must find. Wrappers put pages into PDFs (one DCTDecode image a page, as
// scanners write them) and multi-page TIFFs (as fax software writes them),
// written here by hand so that fumibako's own code is not what makes its
// test inputs.

// ScanFonts are the Japanese fonts tried, in order (Debian
// fonts-ipafont-gothic, installed by `make setup`; Noto CJK as a fallback).
var ScanFonts = []string{
	"/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
	"/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
}

// ScanKind names how a page is laid out and damaged.
type ScanKind string

const (
	ScanHorizontal ScanKind = "horizontal" // clean, 300 dpi
	ScanNoisy      ScanKind = "noisy"      // 200 dpi, noise, skew, JPEG
	ScanVertical   ScanKind = "vertical"   // 縦書き, columns right to left
	ScanRotated90  ScanKind = "rotated90"  // the page turned a quarter
	ScanRotated180 ScanKind = "rotated180" // upside down
	ScanTwoColumn  ScanKind = "twocolumn"  // two columns, left then right
)

// ScanPage is one generated page.
type ScanPage struct {
	Kind  ScanKind
	DPI   int
	Text  []string // the known lines in reading order
	Words []string // the planted 4-character words
	Image *image.Gray
}

// Vertical reports a page of vertical writing.
func (p ScanPage) Vertical() bool { return p.Kind == ScanVertical }

// scanWords are planted 4-character words, distinct from each other.
var scanWords = []string{"見積依頼", "納品予定", "請求金額", "契約更新", "会議資料", "出荷手配", "在庫確認", "予算承認",
	"顧客情報", "営業報告", "支払期日", "品質管理", "作業手順", "安全点検", "経費精算", "人事異動"}

// scanPhrases fill the lines around the planted words; no long vowel mark
// or punctuation, which vertical writing would need turned glyphs for.
var scanPhrases = []string{"について本日", "の件を担当者が", "を確認して", "は来月までに", "を東京本社で", "と大阪支店の",
	"を部長に提出", "の結果を報告", "は先週の会議で", "を取引先へ送付", "について検討", "の内容を共有"}

// ScanFont loads the first of ScanFonts that exists.
func ScanFont() (*opentype.Font, error) {
	for _, p := range ScanFonts {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		return opentype.Parse(b)
	}
	return nil, fmt.Errorf("testcorpus: no Japanese font (%v); run make setup", ScanFonts)
}

// ScanPages renders one page of each kind, then more horizontal and noisy
// ones up to n pages, deterministically from seed.
func ScanPages(f *opentype.Font, n int, seed int64) ([]ScanPage, error) {
	r := rand.New(rand.NewSource(seed))
	kinds := []ScanKind{ScanHorizontal, ScanNoisy, ScanVertical, ScanRotated90, ScanRotated180, ScanTwoColumn}
	var out []ScanPage
	for i := 0; i < n; i++ {
		k := kinds[i%len(kinds)]
		p, err := ScanPageOf(f, k, r)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// scanLine makes one line of about 14 characters that plants word.
func scanLine(r *rand.Rand, word string) string {
	a := scanPhrases[r.Intn(len(scanPhrases))]
	b := scanPhrases[r.Intn(len(scanPhrases))]
	return word + a + b
}

// ScanPageOf renders one page of kind k (an A5 page).
func ScanPageOf(f *opentype.Font, k ScanKind, r *rand.Rand) (ScanPage, error) {
	p := ScanPage{Kind: k, DPI: 300}
	if k == ScanNoisy {
		p.DPI = 200
	}
	w, h := p.DPI*583/100, p.DPI*827/100 // A5: 5.83 × 8.27 in
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 12, DPI: float64(p.DPI), Hinting: font.HintingFull})
	if err != nil {
		return p, err
	}
	defer face.Close()
	img := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.White, image.Point{}, draw.Src)
	em := p.DPI * 12 / 72 // pixels per em at 12 pt
	margin := p.DPI / 2
	nlines := 8
	if k == ScanTwoColumn {
		nlines = 16 // full columns, as a two-column document has them
	}
	words := r.Perm(len(scanWords))
	for i := 0; i < nlines; i++ {
		p.Words = append(p.Words, scanWords[words[i]])
		p.Text = append(p.Text, scanLine(r, scanWords[words[i]]))
	}
	d := &font.Drawer{Dst: img, Src: image.Black, Face: face}
	switch k {
	case ScanVertical:
		// Columns right to left, characters top to bottom, each centred
		// in its em box.
		for c, line := range p.Text {
			x := w - margin - (c+1)*em*2
			for j, ch := range []rune(line) {
				adv := d.MeasureString(string(ch))
				d.Dot = fixed.P(x+(em-adv.Round())/2, margin+(j+1)*em*11/10)
				d.DrawString(string(ch))
			}
		}
	case ScanTwoColumn:
		// Half lines in the left column, then the right column, each
		// line cut to the column's width.
		var left, right []string
		for i, line := range p.Text {
			rs := []rune(line)
			if len(rs) > 10 {
				rs = rs[:10]
			}
			if i < nlines/2 {
				left = append(left, string(rs))
			} else {
				right = append(right, string(rs))
			}
		}
		p.Text = append(left, right...)
		for i, line := range left {
			d.Dot = fixed.P(margin, margin+(i+1)*em*3/2)
			d.DrawString(line)
		}
		for i, line := range right {
			d.Dot = fixed.P(w/2+em/2, margin+(i+1)*em*3/2)
			d.DrawString(line)
		}
	default:
		for i, line := range p.Text {
			d.Dot = fixed.P(margin, margin+(i+1)*em*2)
			d.DrawString(line)
		}
	}
	switch k {
	case ScanNoisy:
		img = skew(img, (r.Float64()*2-1)*2)
		noise(img, r, 0.004)
		img, err = jpegRoundTrip(img, 40)
		if err != nil {
			return p, err
		}
	case ScanRotated90:
		img = turn(img, 90)
	case ScanRotated180:
		img = turn(img, 180)
	}
	p.Image = img
	return p, nil
}

// skew rotates img by deg degrees about its centre (bilinear, white fill).
func skew(img *image.Gray, deg float64) *image.Gray {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewGray(img.Rect)
	s, c := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(w)/2, float64(h)/2
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return 255
		}
		return float64(img.Pix[y*img.Stride+x])
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := c*dx+s*dy+cx, -s*dx+c*dy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}

// noise flips a fraction of pixels to black or white (scanner dust).
func noise(img *image.Gray, r *rand.Rand, frac float64) {
	n := int(float64(len(img.Pix)) * frac)
	for i := 0; i < n; i++ {
		v := uint8(0)
		if r.Intn(2) == 0 {
			v = 255
		}
		img.Pix[r.Intn(len(img.Pix))] = v
	}
}

func jpegRoundTrip(img *image.Gray, q int) (*image.Gray, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		return nil, err
	}
	m, err := jpeg.Decode(&b)
	if err != nil {
		return nil, err
	}
	g, ok := m.(*image.Gray)
	if !ok {
		return nil, fmt.Errorf("testcorpus: jpeg decoded as %T", m)
	}
	return g, nil
}

// turn rotates img clockwise by 90 or 180 degrees.
func turn(img *image.Gray, deg int) *image.Gray {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if deg == 180 {
		out := image.NewGray(img.Rect)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out.Pix[(h-1-y)*out.Stride+w-1-x] = img.Pix[y*img.Stride+x]
			}
		}
		return out
	}
	out := image.NewGray(image.Rect(0, 0, h, w))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			out.Pix[x*out.Stride+h-1-y] = img.Pix[y*img.Stride+x]
		}
	}
	return out
}

// GrayOf converts any image to gray (for wrapping colour test images).
func GrayOf(m image.Image) *image.Gray {
	g := image.NewGray(m.Bounds())
	draw.Draw(g, g.Rect, m, m.Bounds().Min, draw.Src)
	return g
}
