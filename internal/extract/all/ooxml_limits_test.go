package all_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// TestOOXMLLimits checks the limits of reference/extraction.md §13 on
// Word and PowerPoint packages: what the file fails with and that the
// details go to the log only.
func TestOOXMLLimits(t *testing.T) {
	bigBody := strings.Repeat(fixture.WP("あいうえお"), 200) // about 14 KB
	deep := strings.Repeat("<w:sdt><w:sdtContent>", 30) + fixture.WP("深い") + strings.Repeat("</w:sdtContent></w:sdt>", 30)
	zeros := make([]byte, 64<<10)
	tests := []struct {
		name    string
		file    string
		data    []byte
		lim     extract.Limits
		msg     string // the *Error message; "" means success
		logPart string // a text the error's log must contain
	}{
		{
			// honest header declaring a terabyte: refused before inflating
			name: "bomb_declared", file: "a.docx",
			data: fixture.ZipRaw(t, fixture.DocxParts("", nil)[:2], fixture.RawEntry{Name: "word/document.xml", Data: zeros, Declared: 1 << 40}),
			msg:  extract.MsgTooLarge, logPart: "word/document.xml",
		},
		{
			// a header that understates the size is caught after
			// declared+1 bytes
			name: "lying_header", file: "a.docx",
			data: fixture.ZipRaw(t, fixture.DocxParts("", nil)[:2], fixture.RawEntry{Name: "word/document.xml", Data: []byte(fixture.WDocument(bigBody)), Declared: 100}),
			msg:  extract.MsgCorrupt,
		},
		{
			name: "part_cap", file: "a.docx", data: fixture.ZipBytes(t, fixture.DocxParts(bigBody, nil)...),
			lim: extract.Limits{ZipPartBytes: 10000}, msg: extract.MsgTooLarge, logPart: "word/document.xml",
		},
		{
			name: "part_cap_slide", file: "a.pptx",
			data: fixture.ZipBytes(t, fixture.PptxParts([]string{"ppt/slides/slide1.xml"}, fixture.Part{Name: "ppt/slides/slide1.xml", Body: fixture.PSlide("", strings.Repeat(fixture.PSp("", "あいうえお"), 100))})...),
			lim:  extract.Limits{ZipPartBytes: 10000}, msg: extract.MsgTooLarge, logPart: "ppt/slides/slide1.xml",
		},
		{
			name: "total_cap", file: "a.docx",
			data: fixture.ZipBytes(t, fixture.DocxParts(bigBody, nil, fixture.Part{Name: "word/header1.xml", Body: fixture.WPart("hdr", bigBody)}, fixture.Part{Name: "word/footer1.xml", Body: fixture.WPart("ftr", bigBody)})...),
			lim:  extract.Limits{ZipTotalBytes: 30000}, msg: extract.MsgTooLarge, logPart: "上限 30000",
		},
		{
			name: "entries", file: "a.pptx",
			data: fixture.ZipBytes(t, fixture.PptxParts(nil, fixture.Part{Name: "a", Body: ""}, fixture.Part{Name: "b", Body: ""}, fixture.Part{Name: "c", Body: ""})...),
			lim:  extract.Limits{ZipEntries: 5}, msg: extract.MsgTooLarge, logPart: "エントリ数",
		},
		{
			name: "depth", file: "a.docx", data: fixture.ZipBytes(t, fixture.DocxParts(deep, nil)...),
			lim: extract.Limits{XMLDepth: 40}, msg: extract.MsgCorrupt,
		},
		{
			name: "depth_ok", file: "a.docx", data: fixture.ZipBytes(t, fixture.DocxParts(deep, nil)...),
			lim: extract.Limits{XMLDepth: 70},
		},
		{
			name: "bad_crc", file: "a.docx", data: corruptCRC(t, fixture.ZipBytes(t, fixture.DocxParts(fixture.WP("本文"), nil)...)),
			msg: extract.MsgCorrupt,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := fixture.ExtractBytes(t, tc.file, tc.data, extract.Options{Limits: tc.lim})
			if tc.msg == "" {
				if err != nil || len(res.Places) == 0 {
					t.Fatalf("Extract = %v, %v; want places", res, err)
				}
				return
			}
			var fe *extract.Error
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Msg, tc.msg) {
				t.Fatalf("Extract = %v, want *Error %q", err, tc.msg)
			}
			if tc.msg == extract.MsgTooLarge && fe.Msg != extract.MsgTooLarge {
				t.Errorf("message %q carries details; they belong in the log", fe.Msg)
			}
			if !strings.Contains(strings.Join(fe.Log, "\n"), tc.logPart) {
				t.Errorf("log %q, want it to mention %q", fe.Log, tc.logPart)
			}
		})
	}
}

// corruptCRC damages the CRC-32 of word/document.xml in a ZIP, so the
// part inflates fine but fails its checksum at the end.
func corruptCRC(tb testing.TB, data []byte) []byte {
	tb.Helper()
	out := bytes.Clone(data)
	// Local and central headers of word/document.xml carry its CRC at
	// offset 14 and 16 from their signatures; damage both.
	name := []byte("word/document.xml")
	for i := 0; i+46 < len(out); i++ {
		switch {
		case bytes.HasPrefix(out[i:], []byte("PK\x03\x04")) && bytes.HasPrefix(out[i+30:], name):
			out[i+14] ^= 0xff
		case bytes.HasPrefix(out[i:], []byte("PK\x01\x02")) && bytes.HasPrefix(out[i+46:], name):
			out[i+16] ^= 0xff
		}
	}
	return out
}
