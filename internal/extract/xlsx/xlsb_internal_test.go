package xlsx

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff12"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

func TestXlsbNative(t *testing.T) {
	ls := "\u2028"
	basic := fixture.BasicXlsb(t, false)
	d1904 := fixture.BasicXlsb(t, true)
	noStyles := fixture.BasicXlsb(t, false)
	noStyles["xl/styles.bin"] = []byte{0xFF, 0xFF, 0xFF} // broken: every cell General
	broken := fixture.BasicXlsb(t, false)
	broken["xl/worksheets/sheet1.bin"] = fixture.Brt(biff12.CellIsst, uint32(0)) // a cell record too short
	noWorkbook := fixture.BasicXlsb(t, false)
	delete(noWorkbook, "xl/workbook.bin")
	cells := []string{
		"品名\t\t\"改行" + ls + "あり\"",
		"",
		"2024年1月15日\t1,234,567\t123.45\tTRUE\t#DIV/0!\t\t\"\"\"引用\"\"\"",
		"式\t2.50\tFALSE\t#N/A\tリッチ",
	}
	objects := []extract.Place{
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
		want []extract.Place
		msg  string
	}{
		{name: "basic", file: fixture.XlsbPackage(t, basic), want: append([]extract.Place{{Name: "売上", Lines: cells}}, objects...)},
		{name: "date1904", file: fixture.XlsbPackage(t, d1904), want: append([]extract.Place{{Name: "売上", Lines: cells1904}}, objects...)},
		{name: "broken styles", file: fixture.XlsbPackage(t, noStyles), want: append([]extract.Place{{Name: "売上", Lines: general}}, objects...)},
		{name: "broken sheet", file: fixture.XlsbPackage(t, broken), msg: extract.MsgCorrupt},
		{name: "no workbook.bin", file: fixture.XlsbPackage(t, noWorkbook), msg: extract.MsgCorrupt},
		{name: "not a zip", file: []byte("plain text"), msg: extract.MsgCorrupt},
		{name: "encrypted", file: fixture.CfbFile(t, map[string][]byte{"EncryptionInfo": make([]byte, 64), "EncryptedPackage": make([]byte, 64)}), msg: extract.MsgPassword},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fixture.WriteTemp(t, "in.xlsb", tt.file)
			res, err := readXlsbNative(context.Background(), p, extract.Options{Scratch: t.TempDir()})
			if tt.want == nil {
				var e *extract.Error
				if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, tt.msg) {
					t.Fatalf("readXlsbNative() = %v, %v; want error %q", res, err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("readXlsbNative() error %v (%v)", err, errors.Unwrap(err))
			}
			if !reflect.DeepEqual(res.Places, tt.want) {
				t.Errorf("readXlsbNative() places:\n%s\nwant:\n%s", fixture.NativeRender(res, nil), fixture.NativeRender(&extract.Result{Places: tt.want}, nil))
			}
		})
	}
}

// TestXlsbTruncated cuts each part of the test workbook: places or an
// *Error, never a panic.
func TestXlsbTruncated(t *testing.T) {
	for _, part := range []string{"xl/workbook.bin", "xl/styles.bin", "xl/sharedStrings.bin", "xl/worksheets/sheet1.bin", "xl/comments1.bin"} {
		full := fixture.BasicXlsb(t, false)[part]
		for n := 0; n < len(full); n += 3 {
			parts := fixture.BasicXlsb(t, false)
			parts[part] = full[:n]
			p := fixture.WriteTemp(t, "in.xlsb", fixture.XlsbPackage(t, parts))
			_, err := readXlsbNative(context.Background(), p, extract.Options{Scratch: t.TempDir()})
			var e *extract.Error
			if err != nil && (!errors.As(err, &e) || strings.Contains(e.Error(), "panic")) {
				t.Fatalf("%s cut at %d: %v", part, n, err)
			}
		}
	}
}

// TestXlsbVarint reads record headers of every width.
func TestXlsbVarint(t *testing.T) {
	for _, tt := range []struct{ typ, size int }{{0, 0}, {127, 127}, {128, 128}, {16383, 70000}, {300, 1 << 21}} {
		rec := fixture.Brt(tt.typ, make([]byte, tt.size))
		rr := biff12.NewReader(bytes.NewReader(rec))
		typ, data, err := rr.Next(func(int) bool { return true })
		if err != nil || typ != tt.typ || len(data) != tt.size {
			t.Errorf("record (%d, %d bytes) read as (%d, %d bytes, %v)", tt.typ, tt.size, typ, len(data), err)
		}
	}
}
