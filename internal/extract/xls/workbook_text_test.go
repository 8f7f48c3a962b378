package xls_test

import (
	"bytes"
	"context"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/xls"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"golang.org/x/text/encoding/japanese"
)

// TestWorkbookText reads the text cells of embedded workbooks: a shared
// string split by a CONTINUE record, LABEL, RSTRING, a formula's string
// result; numbers, booleans and hidden sheets left out; BIFF5 strings in
// code page 932.
func TestWorkbookText(t *testing.T) {
	sj := func(s string) []byte {
		b, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	stringFormula := func(row, col int) []any {
		return []any{row, col, 0, []byte{0, 0, 0, 0, 0, 0, 0xFF, 0xFF}, uint16(0), uint32(0), 0}
	}
	// "見積" in UTF-16 split after its first character, then "ab".
	sst := fixture.SstRecords(2, 2, fixture.BiffData(uint16(2), uint8(1), fixture.U16s("見")),
		fixture.BiffData(uint8(1), fixture.U16s("積"), fixture.XlStr("ab")))
	biff8 := fixture.BuildBIFF8(nil, []int{0}, sst, []fixture.XlsSheetSpec{
		{Name: "S", Body: func(b *fixture.Biff) {
			b.Rec(biff.RLabelSST, 0, 1, 0, uint32(0))
			b.Rec(biff.RLabelSST, 0, 0, 0, uint32(1))
			b.Rec(biff.RLabel, 1, 0, 0, fixture.XlStr("x\ty"))
			b.Rec(biff.RNumber, 1, 1, 0, 3.5)
			b.Rec(biff.RFormula, stringFormula(2, 3)...)
			b.Rec(biff.RStr, fixture.XlStr(" ok "))
			b.Rec(biff.RBoolErr, 2, 4, 0, uint8(1), uint8(0))
		}},
		{Name: "H", State: 1, Body: func(b *fixture.Biff) { b.Rec(biff.RLabel, 0, 0, 0, fixture.XlStr("hidden")) }},
	})
	biff5 := fixture.BuildBIFF5(932, sj, nil, []int{0}, []fixture.XlsSheetSpec{
		{Name: "見積", Body: func(b *fixture.Biff) {
			b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(sj("品名")))
			b.Rec(biff.RNumber, 0, 1, 0, 1200.0)
			b.Rec(biff.RRString, 1, 0, 0, fixture.Str16(sj("ソフト表示")), uint8(0))
			b.Rec(biff.RFormula, stringFormula(1, 2)...)
			b.Rec(biff.RStr, fixture.Str16(sj("東京都\r\n港区")))
		}},
		{Name: "非表示", State: 1, Body: func(b *fixture.Biff) { b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(sj("秘密"))) }},
		{Name: "表示", Body: func(b *fixture.Biff) { b.Rec(biff.RLabel, 3, 3, 0, fixture.Str16(sj("ｶﾀｶﾅ"))) }},
	})
	tests := []struct {
		name      string
		stream    []byte
		biff5Name bool
		want      []string
	}{
		{"biff8", biff8, false, []string{"ab\t見積", "x y", "ok"}},
		{"biff5 cp932", biff5, true, []string{"品名", "ソフト表示\t東京都 港区", "ｶﾀｶﾅ"}},
		{"biff5 cp932 named Workbook", biff5, false, []string{"品名", "ソフト表示\t東京都 港区", "ｶﾀｶﾅ"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := xls.WorkbookText(context.Background(), bytes.NewReader(tt.stream), tt.biff5Name)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("WorkbookText() = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := xls.WorkbookText(context.Background(), bytes.NewReader([]byte("not biff")), false); err == nil {
		t.Error("WorkbookText(garbage) did not fail")
	}
}
