package xls

import (
	"context"
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"golang.org/x/text/encoding/japanese"
)

// TestEmbeddedWorkbooks reads workbooks embedded as compound files (the
// storage of a .doc's ObjectPool or a .ppt's ExOleObjStg) through package
// embed, which finds this reader in the registry (extract.Embedded):
// Excel 97–2003 (stream Workbook) and Excel 5.0/95 (stream Book,
// Shift_JIS text) give their text rows as [埋め込みN] places, numbered in
// reading order.
func TestEmbeddedWorkbooks(t *testing.T) {
	sj := func(s string) []byte {
		b, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	biff8 := fixture.BuildBIFF8(nil, []int{0}, nil, []fixture.XlsSheetSpec{{Name: "S", Body: func(b *fixture.Biff) {
		b.Rec(biff.RLabel, 0, 0, 0, fixture.XlStr("売上"))
		b.Rec(biff.RNumber, 0, 1, 0, 12.0)
	}}})
	biff5 := fixture.BuildBIFF5(932, sj, nil, []int{0}, []fixture.XlsSheetSpec{{Name: "見積", Body: func(b *fixture.Biff) {
		b.Rec(biff.RLabel, 0, 0, 0, fixture.Str16(sj("ソフト表示")))
		b.Rec(biff.RLabel, 0, 2, 0, fixture.Str16(sj("ﾊﾝｶｸ")))
	}}})
	e := &embed.NativeEmbeds{Ctx: context.Background(), Lim: extract.Options{}.ResolvedLimits(), Read: new(int64)}
	var got []extract.Place
	for i, obj := range [][]byte{
		fixture.CfbFile(t, map[string][]byte{"Workbook": biff8}),
		fixture.CfbFile(t, map[string][]byte{"Book": biff5}),
	} {
		p, err := e.Place(nil, "", obj, string(rune('a'+i)), "obj", "ページ001")
		if err != nil {
			t.Fatal(err)
		}
		if p != nil {
			got = append(got, *p)
		}
	}
	want := []extract.Place{
		{Name: "ページ001[埋め込み1]", Lines: []string{"売上"}},
		{Name: "ページ001[埋め込み2]", Lines: []string{"ソフト表示\tﾊﾝｶｸ"}},
	}
	if !reflect.DeepEqual(got, want) || len(e.Log) != 0 {
		t.Errorf("places %q (log %q), want %q", got, e.Log, want)
	}
}
