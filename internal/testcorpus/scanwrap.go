package testcorpus

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
)

// ScanPDFPage is one page of a generated PDF: a scanned image, or a line
// of text in a text layer (for PDFs that mix both).
type ScanPDFPage struct {
	Image *image.Gray
	DPI   int
	Text  string // ASCII; a text page when Image is nil
}

// ScanPDF writes a PDF whose image pages each hold one DCTDecode image
// covering the page (as scanners write them) and whose text pages hold
// one line of Helvetica.
func ScanPDF(pages []ScanPDFPage) ([]byte, error) {
	var b bytes.Buffer
	var offs []int
	obj := func(body string, stream []byte) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s", len(offs), body)
		if stream != nil {
			b.WriteString("\nstream\n")
			b.Write(stream)
			b.WriteString("\nendstream")
		}
		b.WriteString("\nendobj\n")
	}
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	// 1 catalog, 2 pages, 3 font, then per page: page, content, image.
	n := len(pages)
	kids := ""
	for i := 0; i < n; i++ {
		kids += fmt.Sprintf("%d 0 R ", 4+i*3)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids, n), nil)
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", nil)
	for i, p := range pages {
		pw, ph := 420.0, 595.0
		var content, img []byte
		if p.Image != nil {
			pw = float64(p.Image.Rect.Dx()) * 72 / float64(p.DPI)
			ph = float64(p.Image.Rect.Dy()) * 72 / float64(p.DPI)
			var j bytes.Buffer
			if err := jpeg.Encode(&j, p.Image, &jpeg.Options{Quality: 85}); err != nil {
				return nil, err
			}
			img = j.Bytes()
			content = []byte(fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", pw, ph))
		} else {
			content = []byte(fmt.Sprintf("BT /F1 18 Tf 40 500 Td (%s) Tj ET", p.Text))
		}
		res := "<< /Font << /F1 3 0 R >> >>"
		if img != nil {
			res = fmt.Sprintf("<< /XObject << /Im0 %d 0 R >> >>", 6+i*3)
		}
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources %s /Contents %d 0 R >>", pw, ph, res, 5+i*3), nil)
		obj(fmt.Sprintf("<< /Length %d >>", len(content)), content)
		if img != nil {
			obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>",
				p.Image.Rect.Dx(), p.Image.Rect.Dy(), len(img)), img)
		} else {
			obj("<< >>", nil) // keeps object numbers regular
		}
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes(), nil
}

// ScanTIFF writes a multi-page TIFF (little-endian, uncompressed 8-bit
// gray, one strip a page, a resolution per page), one IFD per page
// chained in order, as fax software writes them.
func ScanTIFF(pages []*image.Gray, dpi int) []byte { return ScanTIFFRes(pages, dpi, dpi) }

// ScanTIFFRes is ScanTIFF with a resolution of its own each way (a fax in
// standard mode is 204 × 98 dpi).
func ScanTIFFRes(pages []*image.Gray, xdpi, ydpi int) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.Write([]byte{'I', 'I', 42, 0, 0, 0, 0, 0})
	next := 4 // where the offset of the next IFD goes
	for _, g := range pages {
		w, h := g.Rect.Dx(), g.Rect.Dy()
		// Pixel data first, then the resolution rational, then the IFD.
		data := b.Len()
		for y := 0; y < h; y++ {
			b.Write(g.Pix[y*g.Stride : y*g.Stride+w])
		}
		if b.Len()%2 == 1 {
			b.WriteByte(0)
		}
		res := b.Len()
		var r [16]byte
		le.PutUint32(r[0:], uint32(xdpi))
		le.PutUint32(r[4:], 1)
		le.PutUint32(r[8:], uint32(ydpi))
		le.PutUint32(r[12:], 1)
		b.Write(r[:])
		ifd := b.Len()
		buf := b.Bytes()
		le.PutUint32(buf[next:], uint32(ifd))
		type ent struct {
			tag, typ uint16
			count    uint32
			val      uint32
		}
		ents := []ent{
			{256, 4, 1, uint32(w)},       // ImageWidth
			{257, 4, 1, uint32(h)},       // ImageLength
			{258, 3, 1, 8},               // BitsPerSample
			{259, 3, 1, 1},               // Compression: none
			{262, 3, 1, 1},               // Photometric: black is zero
			{273, 4, 1, uint32(data)},    // StripOffsets
			{277, 3, 1, 1},               // SamplesPerPixel
			{278, 4, 1, uint32(h)},       // RowsPerStrip
			{279, 4, 1, uint32(w * h)},   // StripByteCounts
			{282, 5, 1, uint32(res)},     // XResolution
			{283, 5, 1, uint32(res + 8)}, // YResolution
			{296, 3, 1, 2},               // ResolutionUnit: inch
		}
		var e [12]byte
		var cnt [2]byte
		le.PutUint16(cnt[:], uint16(len(ents)))
		b.Write(cnt[:])
		for _, x := range ents {
			le.PutUint16(e[0:], x.tag)
			le.PutUint16(e[2:], x.typ)
			le.PutUint32(e[4:], x.count)
			if x.typ == 3 {
				le.PutUint32(e[8:], 0)
				le.PutUint16(e[8:], uint16(x.val))
			} else {
				le.PutUint32(e[8:], x.val)
			}
			b.Write(e[:])
		}
		next = b.Len()
		b.Write([]byte{0, 0, 0, 0})
	}
	return b.Bytes()
}
