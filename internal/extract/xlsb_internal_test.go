package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// brt writes one BIFF12 record: type and size as 7-bit varints, then the
// data (parts as for biffData).
func brt(typ int, parts ...any) []byte {
	d := biffData(parts...)
	var out []byte
	varint := func(v, max int) {
		for i := 0; i < max; i++ {
			c := byte(v & 0x7F)
			v >>= 7
			if v > 0 {
				c |= 0x80
			}
			out = append(out, c)
			if v == 0 {
				break
			}
		}
	}
	varint(typ, 2)
	varint(len(d), 4)
	return append(out, d...)
}

// wide is an XLWideString.
func wide(s string) []byte {
	u := u16s(s)
	return append(biffData(uint32(len(u)/2)), u...)
}

// cellHdr is a Cell structure: column and style.
func cellHdr(col, style int) []byte { return biffData(uint32(col), uint32(style)) }

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

const relNS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

// xlsbPackage writes an .xlsb ZIP from its binary parts and relationships.
func xlsbPackage(tb testing.TB, parts map[string][]byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := []string{"_rels/.rels", "xl/workbook.bin", "xl/_rels/workbook.bin.rels", "xl/styles.bin", "xl/sharedStrings.bin",
		"xl/worksheets/sheet1.bin", "xl/worksheets/sheet2.bin", "xl/worksheets/_rels/sheet1.bin.rels",
		"xl/comments1.bin", "xl/drawings/drawing1.xml"}
	for _, n := range names {
		d, ok := parts[n]
		if !ok {
			continue
		}
		w, err := zw.Create(n)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(d)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func rels(pairs ...string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for i := 0; i+2 < len(pairs)+1; i += 3 {
		b.WriteString(`<Relationship Id="` + pairs[i] + `" Type="` + relNS + pairs[i+1] + `" Target="` + pairs[i+2] + `"/>`)
	}
	b.WriteString(`</Relationships>`)
	return []byte(b.String())
}

// basicXlsb is the main .xlsb test workbook (see TestXlsbNative).
func basicXlsb(tb testing.TB, date1904 bool) map[string][]byte {
	flags := uint32(0)
	if date1904 {
		flags = 1
	}
	wb := cat(
		brt(131),
		brt(xlsbWbProp, flags, make([]byte, 8)),
		brt(xlsbBundleSh, uint32(0), uint32(1), wide("rId1"), wide("売上")),
		brt(xlsbBundleSh, uint32(1), uint32(2), wide("rId2"), wide("隠し")),
		brt(132),
	)
	styles := cat(
		brt(615), brt(xlsbFmt, uint16(164), wide(`yyyy"年"m"月"d"日"`)), brt(616),
		brt(xlsbBeginCellStyleXF), brt(xlsbXF, uint16(0xFFFF), uint16(3), make([]byte, 12)), brt(627),
		brt(xlsbBeginCellXFs),
		brt(xlsbXF, uint16(0), uint16(0), make([]byte, 12)),
		brt(xlsbXF, uint16(0), uint16(164), make([]byte, 12)),
		brt(xlsbXF, uint16(0), uint16(3), make([]byte, 12)),
		brt(xlsbXF, uint16(0), uint16(2), make([]byte, 12)),
		brt(xlsbEndCellXFs),
	)
	sst := cat(brt(159, uint32(2), uint32(2)),
		brt(xlsbSSTItem, uint8(0), wide("品名")),
		brt(xlsbSSTItem, uint8(1), wide("改行\r\nあり"), uint32(0)),
		brt(160))
	sheet := cat(
		brt(129), brt(145),
		brt(xlsbRowHdr, uint32(0), make([]byte, 13)),
		brt(xlsbCellIsst, cellHdr(0, 0), uint32(0)),
		brt(xlsbCellIsst, cellHdr(2, 0), uint32(1)),
		brt(xlsbRowHdr, uint32(2), make([]byte, 13)),
		brt(xlsbCellReal, cellHdr(0, 1), 45306.5),
		brt(xlsbCellRk, cellHdr(1, 2), rkInt(1234567, false)),
		brt(xlsbCellRk, cellHdr(2, 3), rkInt(12345, true)),
		brt(xlsbCellBool, cellHdr(3, 0), uint8(1)),
		brt(xlsbCellError, cellHdr(4, 0), uint8(0x07)),
		brt(xlsbCellBlank, cellHdr(5, 0)),
		brt(xlsbCellSt, cellHdr(6, 0), wide(`"引用"`)),
		brt(xlsbRowHdr, uint32(3), make([]byte, 13)),
		brt(xlsbFmlaString, cellHdr(0, 0), wide("式"), uint16(0), make([]byte, 8)),
		brt(xlsbFmlaNum, cellHdr(1, 3), 2.5, uint16(0), make([]byte, 8)),
		brt(xlsbFmlaBool, cellHdr(2, 0), uint8(0), uint16(0), make([]byte, 8)),
		brt(xlsbFmlaError, cellHdr(3, 0), uint8(0x2A), uint16(0), make([]byte, 8)),
		brt(xlsbCellRString, cellHdr(4, 0), uint8(1), wide("リッチ"), uint32(0)),
		brt(146),
		brt(xlsbBeginHeaderFtr, uint16(0), wide("&C見出し"), wide("&R&P"), uint32(0xFFFFFFFF), uint32(0xFFFFFFFF), uint32(0xFFFFFFFF), uint32(0xFFFFFFFF)),
		brt(130),
	)
	comments := cat(
		brt(628), brt(630), brt(632, wide("山田")), brt(631),
		brt(633),
		brt(xlsbBeginComment, uint32(0), uint32(2), uint32(2), uint32(1), uint32(1), make([]byte, 16)),
		brt(xlsbCommentText, uint8(0), wide("山田:\n確認"), uint32(0)),
		brt(xlsbEndComment),
		brt(634), brt(629),
	)
	drawing := `<?xml version="1.0" encoding="UTF-8"?><xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">` +
		`<xdr:twoCellAnchor><xdr:from><xdr:col>5</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>1</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
		`<xdr:to><xdr:col>7</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>4</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>` +
		`<xdr:sp><xdr:txBody><a:p><a:r><a:t>図形の文字</a:t></a:r></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`
	return map[string][]byte{
		"_rels/.rels":     rels("rId1", "officeDocument", "xl/workbook.bin"),
		"xl/workbook.bin": wb,
		"xl/_rels/workbook.bin.rels": rels("rId1", "worksheet", "worksheets/sheet1.bin", "rId2", "worksheet", "worksheets/sheet2.bin",
			"rId3", "styles", "styles.bin", "rId4", "sharedStrings", "sharedStrings.bin"),
		"xl/styles.bin":                       styles,
		"xl/sharedStrings.bin":                sst,
		"xl/worksheets/sheet1.bin":            sheet,
		"xl/worksheets/sheet2.bin":            cat(brt(xlsbRowHdr, uint32(0), make([]byte, 13)), brt(xlsbCellSt, cellHdr(0, 0), wide("secret"))),
		"xl/worksheets/_rels/sheet1.bin.rels": rels("rId1", "comments", "../comments1.bin", "rId2", "drawing", "../drawings/drawing1.xml"),
		"xl/comments1.bin":                    comments,
		"xl/drawings/drawing1.xml":            []byte(drawing),
	}
}

func TestXlsbNative(t *testing.T) {
	ls := "\u2028"
	basic := basicXlsb(t, false)
	d1904 := basicXlsb(t, true)
	noStyles := basicXlsb(t, false)
	noStyles["xl/styles.bin"] = []byte{0xFF, 0xFF, 0xFF} // broken: every cell General
	broken := basicXlsb(t, false)
	broken["xl/worksheets/sheet1.bin"] = brt(xlsbCellIsst, uint32(0)) // a cell record too short
	noWorkbook := basicXlsb(t, false)
	delete(noWorkbook, "xl/workbook.bin")
	cells := []string{
		"品名\t\t\"改行" + ls + "あり\"",
		"",
		"2024年1月15日\t1,234,567\t123.45\tTRUE\t#DIV/0!\t\t\"\"\"引用\"\"\"",
		"式\t2.50\tFALSE\t#N/A\tリッチ",
	}
	objects := []Place{
		{Name: "売上[図形]", Lines: []string{"F2\t図形の文字"}},
		{Name: "売上[コメント]", Lines: []string{"B3\t\"山田:" + ls + "確認\""}},
		{Name: "売上[ヘッダー・フッター]", Lines: []string{"見出し"}},
	}
	cells1904 := append([]string(nil), cells...)
	cells1904[2] = strings.Replace(cells1904[2], "2024年1月15日", "2028年1月16日", 1)
	general := []string{
		cells[0], "",
		"45306.5\t1234567\t123.45\tTRUE\t#DIV/0!\t\t\"\"\"引用\"\"\"",
		"式\t2.5\tFALSE\t#N/A\tリッチ",
	}
	tests := []struct {
		name string
		file []byte
		want []Place
		msg  string
	}{
		{name: "basic", file: xlsbPackage(t, basic), want: append([]Place{{Name: "売上", Lines: cells}}, objects...)},
		{name: "date1904", file: xlsbPackage(t, d1904), want: append([]Place{{Name: "売上", Lines: cells1904}}, objects...)},
		{name: "broken styles", file: xlsbPackage(t, noStyles), want: append([]Place{{Name: "売上", Lines: general}}, objects...)},
		{name: "broken sheet", file: xlsbPackage(t, broken), msg: MsgCorrupt},
		{name: "no workbook.bin", file: xlsbPackage(t, noWorkbook), msg: MsgCorrupt},
		{name: "not a zip", file: []byte("plain text"), msg: MsgCorrupt},
		{name: "encrypted", file: cfbFile(t, map[string][]byte{"EncryptionInfo": make([]byte, 64), "EncryptedPackage": make([]byte, 64)}), msg: MsgPassword},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeTemp(t, "in.xlsb", tt.file)
			res, err := readXlsbNative(context.Background(), p, Options{Scratch: t.TempDir()})
			if tt.want == nil {
				var e *Error
				if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, tt.msg) {
					t.Fatalf("readXlsbNative() = %v, %v; want error %q", res, err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("readXlsbNative() error %v (%v)", err, errors.Unwrap(err))
			}
			if !reflect.DeepEqual(res.Places, tt.want) {
				t.Errorf("readXlsbNative() places:\n%s\nwant:\n%s", nativeRender(res, nil), nativeRender(&Result{Places: tt.want}, nil))
			}
		})
	}
}

// TestXlsbTruncated cuts each part of the test workbook: places or an
// *Error, never a panic.
func TestXlsbTruncated(t *testing.T) {
	for _, part := range []string{"xl/workbook.bin", "xl/styles.bin", "xl/sharedStrings.bin", "xl/worksheets/sheet1.bin", "xl/comments1.bin"} {
		full := basicXlsb(t, false)[part]
		for n := 0; n < len(full); n += 3 {
			parts := basicXlsb(t, false)
			parts[part] = full[:n]
			p := writeTemp(t, "in.xlsb", xlsbPackage(t, parts))
			_, err := readXlsbNative(context.Background(), p, Options{Scratch: t.TempDir()})
			var e *Error
			if err != nil && (!errors.As(err, &e) || strings.Contains(e.Error(), "panic")) {
				t.Fatalf("%s cut at %d: %v", part, n, err)
			}
		}
	}
}

// TestXlsbVarint reads record headers of every width.
func TestXlsbVarint(t *testing.T) {
	for _, tt := range []struct{ typ, size int }{{0, 0}, {127, 127}, {128, 128}, {16383, 70000}, {300, 1 << 21}} {
		rec := brt(tt.typ, make([]byte, tt.size))
		rr := newXlsbRecordReader(bytes.NewReader(rec))
		typ, data, err := rr.next(func(int) bool { return true })
		if err != nil || typ != tt.typ || len(data) != tt.size {
			t.Errorf("record (%d, %d bytes) read as (%d, %d bytes, %v)", tt.typ, tt.size, typ, len(data), err)
		}
	}
}
