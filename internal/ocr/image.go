package ocr

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	"image/color"
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
	for y := 0; y < b.Dy(); y++ {
		row := g.Pix[y*g.Stride:]
		for x := 0; x < b.Dx(); x++ {
			c := img.At(b.Min.X+x, b.Min.Y+y)
			// Transparent pixels are paper: composite over white.
			r, gg, bb, a := c.RGBA()
			w := 0xffff - a
			row[x] = color.GrayModel.Convert(color.RGBA64{uint16(r + w), uint16(gg + w), uint16(bb + w), 0xffff}).(color.Gray).Y
		}
	}
	return g
}

// fit scales g down by area averaging until it holds at most max pixels.
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
	out := image.NewGray(image.Rect(0, 0, nw, nh))
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
