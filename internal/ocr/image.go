package ocr

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	"math"
)

// Pixel bounds. A page is read at about 300 dpi (an A4 page is 8.7 Mpx
// there); a larger image is scaled down to MaxPixels before Tesseract
// sees it, which keeps its time and memory per page bounded. A source
// image over MaxDecodePixels is not decoded at all (readers check
// image.DecodeConfig first): 40 Mpx holds an A4 page at 600 dpi (35 Mpx),
// and decodes into at most 160 MB (RGBA).
const (
	DPI             = 300
	MaxPixels       = 20_000_000 // an A3 page at 300 dpi (17.4 Mpx) fits
	MaxDecodePixels = 40_000_000
)

// MsgTooLarge is the failure of an image over MaxDecodePixels.
const MsgTooLarge = "画像が大きすぎるため文字を読み取れません（1 ページ 4,000 万画素まで）"

// SettingsVersion names the recognizer's settings that shape a page's
// lines (preparation, languages, page modes, confidence threshold, line
// joining). Key includes it, so changing any of them re-OCRs every page.
// History:
//
//	1: gray, ≤ 20 Mpx, OSD, jpn+eng psm 3, jpn_vert psm 5 when poor, conf ≥ 20
//	   (and unsure kanji or kana between sure words)
const SettingsVersion = "tesseract-1"

// Key names a page image by content (doc.go "Keys"): hex SHA-256 of
// SettingsVersion, the size and the 8-bit gray levels.
func Key(img image.Image) string {
	g := Gray(img)
	h := sha256.New()
	h.Write([]byte(SettingsVersion))
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(g.Rect.Dx()))
	binary.BigEndian.PutUint32(hdr[4:], uint32(g.Rect.Dy()))
	h.Write(hdr[:])
	for y := 0; y < g.Rect.Dy(); y++ {
		i := y * g.Stride
		h.Write(g.Pix[i : i+g.Rect.Dx()])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Gray returns img as 8-bit gray levels, without a copy when it is
// already *image.Gray; a JPEG's luma plane is taken as it is. The result
// starts at (0, 0).
func Gray(img image.Image) *image.Gray {
	b := img.Bounds()
	switch m := img.(type) {
	case *image.Gray:
		if b.Min == (image.Point{}) {
			return m
		}
	case *image.YCbCr:
		g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
		for y := 0; y < b.Dy(); y++ {
			i := m.YOffset(b.Min.X, b.Min.Y+y)
			copy(g.Pix[y*g.Stride:], m.Y[i:i+b.Dx()])
		}
		return g
	}
	g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	switch m := img.(type) {
	case *image.RGBA:
		// PNG's truecolor and PDF renderings: the generic path's
		// arithmetic without an interface call per pixel.
		for y := 0; y < b.Dy(); y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			row := g.Pix[y*g.Stride:]
			for x := 0; x < b.Dx(); x++ {
				p := src[4*x : 4*x+4]
				w := 0xffff - uint32(p[3])*0x101
				row[x] = luma(uint32(p[0])*0x101+w, uint32(p[1])*0x101+w, uint32(p[2])*0x101+w)
			}
		}
		return g
	}
	for y := 0; y < b.Dy(); y++ {
		row := g.Pix[y*g.Stride:]
		for x := 0; x < b.Dx(); x++ {
			c := img.At(b.Min.X+x, b.Min.Y+y)
			// Transparent pixels are paper: composite over white.
			r, gg, bb, a := c.RGBA()
			w := 0xffff - a
			row[x] = luma(r+w, gg+w, bb+w)
		}
	}
	return g
}

// luma is color.GrayModel's conversion of an opaque 16-bit colour.
func luma(r, g, b uint32) uint8 {
	return uint8((19595*min(r, 0xffff) + 38470*min(g, 0xffff) + 7471*min(b, 0xffff) + 1<<15) >> 24)
}

// fit scales g down until it holds at most max pixels.
func fit(g *image.Gray, max int) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if w*h <= max || w == 0 || h == 0 {
		return g
	}
	s := math.Sqrt(float64(max) / float64(w*h))
	nw, nh := max1(int(float64(w)*s)), max1(int(float64(h)*s))
	// A side scaled below one pixel stays one: the other gives way.
	if nw*nh > max {
		if nh == 1 {
			nw = max
		} else {
			nh = max1(max / nw)
		}
	}
	return resize(g, nw, nh)
}

// Prepare returns the page image Tesseract should see (and Key should
// name) for a page scanned at xdpi × ydpi (0 when the file does not say):
// gray; pixels made square when the resolutions differ (a fax in standard
// mode, 204 × 98 dpi, gets its coarse axis scaled up to 204); scaled to
// about DPI when its resolution is above MaxDPI (a 600 dpi scan is
// halved) or below MinDPI (a 150 dpi scan is doubled); at most MaxPixels.
// A scan between MinDPI and MaxDPI keeps its pixels: Tesseract reads 200
// dpi text well, and scaling a noisy scan up blurs its specks into
// strokes (a 200 dpi page with scanner dust lost the first characters of
// its lines when it was scaled to 300).
func Prepare(img image.Image, xdpi, ydpi float64) *image.Gray {
	g := Gray(img)
	w, h := g.Rect.Dx(), g.Rect.Dy()
	nw, nh := w, h
	if xdpi > 0 && ydpi > 0 {
		// At most four times the pixels each way: a stated resolution
		// far off is more likely wrong than the scan that coarse.
		fw, fh := 1.0, 1.0
		if d := max(xdpi, ydpi); d/min(xdpi, ydpi) > squareRatio {
			fw, fh = min(d/xdpi, 4), min(d/ydpi, 4)
			xdpi, ydpi = d, d
		}
		if outside(xdpi) {
			fw, fh = fw*min(DPI/xdpi, 4), fh*min(DPI/ydpi, 4)
		}
		nw = max1(int(math.Round(float64(w) * fw)))
		nh = max1(int(math.Round(float64(h) * fh)))
		if float64(nw)*float64(nh) > MaxPixels {
			s := math.Sqrt(MaxPixels / (float64(nw) * float64(nh)))
			nw, nh = max1(int(float64(nw)*s)), max1(int(float64(nh)*s))
		}
	}
	if nw != w || nh != h {
		g = resize(g, nw, nh)
	}
	return fit(g, MaxPixels)
}

// The resolutions Prepare leaves alone, and how far apart the two axes'
// may be for pixels still counted as square.
const (
	MinDPI      = 200
	MaxDPI      = 400
	squareRatio = 1.25
)

func outside(dpi float64) bool { return dpi < MinDPI || dpi > MaxDPI }

// resize scales g to nw × nh: by area averaging when it shrinks both
// ways (every source pixel counts, so thin strokes stay), bilinearly
// otherwise.
func resize(g *image.Gray, nw, nh int) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, nw, nh))
	if nw <= w && nh <= h {
		for y := 0; y < nh; y++ {
			y0, y1 := y*h/nh, max1((y+1)*h/nh)
			if y1 <= y0 {
				y1 = y0 + 1
			}
			for x := 0; x < nw; x++ {
				x0, x1 := x*w/nw, (x+1)*w/nw
				if x1 <= x0 {
					x1 = x0 + 1
				}
				sum, n := 0, 0
				for yy := y0; yy < y1; yy++ {
					row := g.Pix[yy*g.Stride:]
					for xx := x0; xx < x1; xx++ {
						sum += int(row[xx])
						n++
					}
				}
				out.Pix[y*out.Stride+x] = uint8(sum / n)
			}
		}
		return out
	}
	at := func(x, y int) float64 {
		x, y = min(max(x, 0), w-1), min(max(y, 0), h-1)
		return float64(g.Pix[y*g.Stride+x])
	}
	for y := 0; y < nh; y++ {
		sy := (float64(y)+0.5)*float64(h)/float64(nh) - 0.5
		y0 := int(math.Floor(sy))
		fy := sy - float64(y0)
		for x := 0; x < nw; x++ {
			sx := (float64(x)+0.5)*float64(w)/float64(nw) - 0.5
			x0 := int(math.Floor(sx))
			fx := sx - float64(x0)
			v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}

func max1(v int) int {
	if v < 1 {
		return 1
	}
	return v
}

// rotate turns g clockwise by deg (90, 180 or 270), as OSD's "Rotate"
// asks to make the page upright.
func rotate(g *image.Gray, deg int) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var out *image.Gray
	switch deg {
	case 90, 270:
		out = image.NewGray(image.Rect(0, 0, h, w))
	case 180:
		out = image.NewGray(image.Rect(0, 0, w, h))
	default:
		return g
	}
	for y := 0; y < h; y++ {
		row := g.Pix[y*g.Stride:]
		for x := 0; x < w; x++ {
			v := row[x]
			switch deg {
			case 90: // (x, y) → (h-1-y, x)
				out.Pix[x*out.Stride+h-1-y] = v
			case 180:
				out.Pix[(h-1-y)*out.Stride+w-1-x] = v
			case 270: // (x, y) → (y, w-1-x)
				out.Pix[(w-1-x)*out.Stride+y] = v
			}
		}
	}
	return out
}
