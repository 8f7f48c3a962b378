package xls

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// BIFF5 (Excel 5.0/95) workbooks built byte by byte: LibreOffice 7.4
// reads BIFF5 but cannot write it, and Japanese files of that era hold
// Shift_JIS (code page 932) text, so the tests write the records the way
// Excel 95 does and compare the native reader's places with what is
// expected here and with LibreOffice's own reading of the same bytes
// (TestBIFF5LibreOffice).

// encoder returns a function encoding a string in enc, failing the test
// on a character enc lacks.
func encoder(tb testing.TB, enc encoding.Encoding) func(string) []byte {
	return func(s string) []byte {
		b, err := enc.NewEncoder().Bytes([]byte(s))
		if err != nil {
			tb.Fatalf("encode %q: %v", s, err)
		}
		return b
	}
}

// BIFF5 formula tokens ([MS-XLS] 2.5.198, the BIFF5 forms).
const (
	ptgMul    = 0x05
	ptgConcat = 0x08
	ptgStr    = 0x17
	ptgInt    = 0x1E
)

// formula5 is a BIFF5 FORMULA record body: the cell, the cached result
// (8 bytes), grbit, chn and the parsed expression.
func formula5(row, col, xf int, result []byte, rgce []byte) []any {
	return []any{row, col, xf, result, uint16(0x0002), uint32(0), len(rgce), rgce}
}

// stringResult is the cached result field of a formula whose value is a
// string (the STRING record follows).
var stringResult = []byte{0, 0, 0, 0, 0, 0, 0xFF, 0xFF}

// cp932Book is an Excel 95 workbook in code page 932 with every record
// the reader takes strings from: sheet names, FORMAT, LABEL, RSTRING,
// FORMULA with its STRING, NOTE (continued), HEADER and FOOTER, next to
// NUMBER, RK, MULRK and BOOLERR; a hidden sheet and a second visible one.
// Its strings hold the bytes that trip naive decoders: trail bytes 0x5C
// (ソ 835C, 表 955C) and half-width katakana (single bytes A1–DF).
func cp932Book(tb testing.TB) []byte {
	sj := encoder(tb, japanese.ShiftJIS)
	globals := func(b *fixture.Biff) {
		b.Rec(biff.RFormat, 164, fixture.Str8(sj(`#,##0"円"`)))
		b.Rec(biff.RFormat, 165, fixture.Str8(sj(`yyyy"年"m"月"d"日"`)))
	}
	// Two NOTE records: the first holds the count of the whole text and
	// its first part, the second (row 0xFFFF) the rest.
	note := sj("担当：山田\n至急確認のこと")
	cut := len(sj("担当：山田\n"))
	main := func(b *fixture.Biff) {
		b.Rec(biff.RHeader, fixture.Str8(sj("&L社名&C見積書&R&P")))
		b.Rec(biff.RFooter, fixture.Str8(sj("&Cソフト表示")))
		b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(sj("品名")))
		b.Rec(biff.RLabel, 0, 1, 0, fixture.Str16(sj("単価")))
		b.Rec(biff.RLabel, 0, 2, 0, fixture.Str16(sj("数量")))
		b.Rec(biff.RLabel, 0, 3, 0, fixture.Str16(sj("金額")))
		b.Rec(biff.RLabel, 1, 0, 0, fixture.Str16(sj("ソフト表示")))
		b.Rec(biff.RNumber, 1, 1, 1, 1200.0)
		b.Rec(biff.RRK, 1, 2, 0, fixture.RkInt(3, false))
		b.Rec(biff.RFormula, formula5(1, 3, 1, fixture.BiffData(3600.0), []byte{ptgInt, 0xB0, 0x04, ptgInt, 3, 0, ptgMul})...)
		// RSTRING: the text, then its formatting runs (count, then
		// character index and font per run).
		b.Rec(biff.RRString, 2, 0, 0, fixture.Str16(sj("ﾊﾝｶｸｶﾀｶﾅ")), uint8(1), uint8(2), uint8(0))
		// MULRK: row, first column, (XF, RK) per cell, last column.
		b.Rec(biff.RMulRK, 2, 1, 0, fixture.RkInt(150, true), 0, fixture.RkInt(2, false), 1, fixture.RkInt(250, false), 3)
		tok := fixture.BiffData(uint8(ptgStr), fixture.Str8(sj("東京")), uint8(ptgStr), fixture.Str8(sj("都")), uint8(ptgConcat))
		b.Rec(biff.RFormula, formula5(3, 0, 0, stringResult, tok)...)
		b.Rec(biff.RStr, fixture.Str16(sj("東京都")))
		b.Rec(biff.RBoolErr, 3, 1, 0, uint8(1), uint8(0))
		b.Rec(biff.RBoolErr, 3, 2, 0, uint8(0x07), uint8(1))
		b.Rec(biff.RNumber, 4, 0, 2, 45306.0)
		b.Rec(biff.RLabel, 4, 1, 0, fixture.Str16(sj("全角　スペース")))
		b.Rec(biff.RNote, 1, 0, len(note), note[:cut])
		b.Rec(biff.RNote, 0xFFFF, 0, fixture.Str16(note[cut:]))
	}
	return fixture.BuildBIFF5(932, sj, globals, []int{0, 164, 165, 0}, []fixture.XlsSheetSpec{
		{Name: "見積", Body: main},
		{Name: "非表示", State: 1, Body: func(b *fixture.Biff) { b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(sj("秘密"))) }},
		{Name: "表示ソ", Body: func(b *fixture.Biff) {
			b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(sj("合計")))
			b.Rec(biff.RNumber, 0, 1, 1, 3600.0)
			b.Rec(biff.RLabel, 2, 2, 0, fixture.Str16(sj("ｱｲｳｴｵ・〒№")))
		}},
	})
}

// cp1252Book and macRomanBook are Western workbooks in code page 1252
// and 10000 (Mac Roman, Excel 5 for the Macintosh).
func westernBook(tb testing.TB, cp int, enc encoding.Encoding) []byte {
	e := encoder(tb, enc)
	return fixture.BuildBIFF5(cp, e, nil, []int{0}, []fixture.XlsSheetSpec{
		{Name: "Résumé", Body: func(b *fixture.Biff) {
			b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(e("Café crème")))
			b.Rec(biff.RLabel, 0, 1, 0, fixture.Str16(e("Ærø – “quoted” €")))
			b.Rec(biff.RNumber, 1, 0, 0, 0.25)
		}},
	})
}

func TestBIFF5Native(t *testing.T) {
	ls := "\u2028"
	west := []extract.Place{{Name: "Résumé", Lines: []string{"Café crème\tÆrø – “quoted” €", "0.25"}}}
	tests := []struct {
		name string
		book []byte
		want []extract.Place
	}{
		{
			name: "cp932",
			book: cp932Book(t),
			want: []extract.Place{
				{Name: "見積", Lines: []string{
					"品名\t単価\t数量\t金額",
					"ソフト表示\t1,200円\t3\t3,600円",
					"ﾊﾝｶｸｶﾀｶﾅ\t1.5\t2\t250円",
					"東京都\tTRUE\t#DIV/0!",
					"2024年1月15日\t全角　スペース",
				}},
				{Name: "見積[コメント]", Lines: []string{"A2\t\"担当：山田" + ls + "至急確認のこと\""}},
				{Name: "見積[ヘッダー・フッター]", Lines: []string{"社名", "見積書", "ソフト表示"}},
				{Name: "表示ソ", Lines: []string{"合計\t3,600円", "", "\t\tｱｲｳｴｵ・〒№"}},
			},
		},
		{name: "cp1252", book: westernBook(t, 1252, charmap.Windows1252), want: west},
		{name: "mac roman", book: westernBook(t, 10000, charmap.Macintosh), want: west},
	}
	for _, tt := range tests {
		for _, stream := range []string{"Book", "Workbook"} {
			t.Run(tt.name+"/"+stream, func(t *testing.T) {
				p := fixture.WriteTemp(t, "in.xls", fixture.CfbFile(t, map[string][]byte{stream: tt.book}))
				res, err := readXlsNative(context.Background(), p, extract.Options{Scratch: t.TempDir()})
				if err != nil {
					t.Fatalf("readXlsNative() error %v (%v)", err, errors.Unwrap(err))
				}
				if !reflect.DeepEqual(res.Places, tt.want) {
					t.Errorf("readXlsNative() places:\n%s\nwant:\n%s", fixture.NativeRender(res, nil), fixture.NativeRender(&extract.Result{Places: tt.want}, nil))
				}
			})
		}
	}
}

// oldBook is an Excel 3.0 (ver 3) or 4.0 (ver 4) worksheet in code page
// 932: a bare stream (no compound file) whose FORMAT records list every
// number format in order.
func oldBook(tb testing.TB, ver int) []byte {
	sj := encoder(tb, japanese.ShiftJIS)
	formats := [][]byte{[]byte("General"), []byte("0"), sj(`#,##0"円"`), sj(`yyyy"年"m"月"d"日"`)}
	formula := uint16(0x0406)
	if ver == 3 {
		formula = 0x0206
	}
	return fixture.BuildOldBIFF(ver, 932, formats, []int{0, 2, 3}, func(b *fixture.Biff) {
		b.Rec(biff.RHeader, fixture.Str8(sj("&C見積書")))
		b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(sj("品名")))
		b.Rec(biff.RLabel, 0, 1, 0, fixture.Str16(sj("ソフト表示")))
		b.Rec(biff.RNumber, 1, 0, 1, 1200.0)
		b.Rec(biff.RRK, 1, 1, 0, fixture.RkInt(3, false))
		tok := fixture.BiffData(uint8(ptgStr), fixture.Str8(sj("東京")), uint8(ptgStr), fixture.Str8(sj("都")), uint8(ptgConcat))
		b.Rec(formula, 2, 0, 0, stringResult, uint16(0x0002), len(tok), tok)
		b.Rec(biff.RStr, fixture.Str16(sj("東京都")))
		b.Rec(formula, 2, 1, 1, fixture.BiffData(3600.0), uint16(0x0002), 7, []byte{ptgInt, 0xB0, 0x04, ptgInt, 3, 0, ptgMul})
		b.Rec(biff.RNumber, 3, 0, 2, 45306.0)
		b.Rec(biff.RLabel, 3, 1, 0, fixture.Str16(sj("ﾊﾝｶｸ")))
		b.Rec(biff.RNote, 0, 1, fixture.Str16(sj("担当：山田")))
	})
}

func TestOldBIFFNative(t *testing.T) {
	want := []extract.Place{
		{Name: "Sheet1", Lines: []string{"品名\tソフト表示", "1,200円\t3", "東京都\t3,600円", "2024年1月15日\tﾊﾝｶｸ"}},
		{Name: "Sheet1[コメント]", Lines: []string{"B1\t担当：山田"}},
		{Name: "Sheet1[ヘッダー・フッター]", Lines: []string{"見積書"}},
	}
	for _, ver := range []int{3, 4} {
		t.Run("biff"+string(rune('0'+ver)), func(t *testing.T) {
			p := fixture.WriteTemp(t, "in.xls", oldBook(t, ver))
			res, err := readXlsNative(context.Background(), p, extract.Options{Scratch: t.TempDir()})
			if err != nil {
				t.Fatalf("readXlsNative() error %v (%v)", err, errors.Unwrap(err))
			}
			if !reflect.DeepEqual(res.Places, want) {
				t.Errorf("readXlsNative() places:\n%s\nwant:\n%s", fixture.NativeRender(res, nil), fixture.NativeRender(&extract.Result{Places: want}, nil))
			}
		})
	}
}

// TestOldBIFFFallback: what the native reader leaves to LibreOffice among
// bare BIFF streams fails Corrupt — BIFF2 and a BIFF4 workbook.
func TestOldBIFFFallback(t *testing.T) {
	for name, file := range map[string][]byte{
		"biff2":          fixture.BiffData(uint16(0x0009), uint16(4), uint16(2), uint16(0x10), uint16(0x000A), uint16(0)),
		"biff4 workbook": fixture.BiffData(uint16(0x0409), uint16(6), uint16(0), uint16(0x0100), uint16(0), uint16(0x000A), uint16(0)),
	} {
		t.Run(name, func(t *testing.T) {
			p := fixture.WriteTemp(t, "in.xls", file)
			res, err := readXlsNative(context.Background(), p, extract.Options{Scratch: t.TempDir()})
			var e *extract.Error
			if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, extract.MsgCorrupt) {
				t.Fatalf("readXlsNative() = %v, %v; want MsgCorrupt", res, err)
			}
		})
	}
}
