package extract_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// TestOOXMLLimits checks the limits of reference/extraction.md §13 on
// Word and PowerPoint packages: what the file fails with and that the
// details go to the log only.
func TestOOXMLLimits(t *testing.T) {
	bigBody := strings.Repeat(wP("あいうえお"), 200) // about 14 KB
	deep := strings.Repeat("<w:sdt><w:sdtContent>", 30) + wP("深い") + strings.Repeat("</w:sdtContent></w:sdt>", 30)
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
			data: zipRaw(t, docxParts("", nil)[:2], rawEntry{Name: "word/document.xml", Data: zeros, Declared: 1 << 40}),
			msg:  extract.MsgTooLarge, logPart: "word/document.xml",
		},
		{
			// a header that understates the size is caught after
			// declared+1 bytes
			name: "lying_header", file: "a.docx",
			data: zipRaw(t, docxParts("", nil)[:2], rawEntry{Name: "word/document.xml", Data: []byte(wDocument(bigBody)), Declared: 100}),
			msg:  extract.MsgCorrupt,
		},
		{
			name: "part_cap", file: "a.docx", data: zipBytes(t, docxParts(bigBody, nil)...),
			lim: extract.Limits{ZipPartBytes: 10000}, msg: extract.MsgTooLarge, logPart: "word/document.xml",
		},
		{
			name: "part_cap_slide", file: "a.pptx",
			data: zipBytes(t, pptxParts([]string{"ppt/slides/slide1.xml"}, part{"ppt/slides/slide1.xml", pSlide("", strings.Repeat(pSp("", "あいうえお"), 100))})...),
			lim:  extract.Limits{ZipPartBytes: 10000}, msg: extract.MsgTooLarge, logPart: "ppt/slides/slide1.xml",
		},
		{
			name: "total_cap", file: "a.docx",
			data: zipBytes(t, docxParts(bigBody, nil, part{"word/header1.xml", wPart("hdr", bigBody)}, part{"word/footer1.xml", wPart("ftr", bigBody)})...),
			lim:  extract.Limits{ZipTotalBytes: 30000}, msg: extract.MsgTooLarge, logPart: "上限 30000",
		},
		{
			name: "entries", file: "a.pptx",
			data: zipBytes(t, pptxParts(nil, part{"a", ""}, part{"b", ""}, part{"c", ""})...),
			lim:  extract.Limits{ZipEntries: 5}, msg: extract.MsgTooLarge, logPart: "エントリ数",
		},
		{
			name: "depth", file: "a.docx", data: zipBytes(t, docxParts(deep, nil)...),
			lim: extract.Limits{XMLDepth: 40}, msg: extract.MsgCorrupt,
		},
		{
			name: "depth_ok", file: "a.docx", data: zipBytes(t, docxParts(deep, nil)...),
			lim: extract.Limits{XMLDepth: 70},
		},
		{
			name: "bad_crc", file: "a.docx", data: corruptCRC(t, zipBytes(t, docxParts(wP("本文"), nil)...)),
			msg: extract.MsgCorrupt,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ooxmlExtractBytes(t, tc.file, tc.data, extract.Options{Limits: tc.lim})
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
