package xls

import (
	"context"
	"crypto/md5"
	"crypto/rc4"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/sheet"
	"golang.org/x/text/encoding/japanese"
)

// SJIS encodes s in Shift_JIS (code page 932).
func SJIS(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(s))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// officeArtShape is an OfficeArtSpContainer whose client anchor's top-left
// cell is (col, row), 0-based.
func officeArtShape(col, row int) []byte {
	anchor := fixture.BiffData(uint16(0), col, 0, row, 0, col+2, 0, row+3, 0)
	sp := fixture.BiffData(uint16(0x0002), uint16(0xF00A), uint32(8), uint32(1025), uint32(0xA00))
	an := append(fixture.BiffData(uint16(0), uint16(0xF010), uint32(len(anchor))), anchor...)
	cd := fixture.BiffData(uint16(0), uint16(0xF011), uint32(0))
	body := append(append(sp, an...), cd...)
	return append(fixture.BiffData(uint16(0x000F), uint16(0xF004), uint32(len(body))), body...)
}

// objCmo is an OBJ record body with only its FtCmo and FtEnd.
func objCmo(ot, id int) []byte {
	return fixture.BiffData(uint16(0x15), uint16(0x12), ot, id, uint16(0x6011), make([]byte, 12), uint32(0))
}

// txo writes a TXO record and its text and run CONTINUE records.
func txo(b *fixture.Biff, text string) {
	n := len([]rune(text))
	b.Rec(biff.RTxO, uint16(0x0212), uint16(0), make([]byte, 6), n, uint16(16), uint16(0), uint32(0))
	b.Rec(biff.RContinue, uint8(1), fixture.U16s(text))
	b.Rec(biff.RContinue, make([]byte, 16))
}

// basicBIFF8 is the main BIFF8 test workbook (see TestXlsNative).
func basicBIFF8(tb testing.TB) []byte {
	sst := fixture.SstRecords(7, 6,
		fixture.BiffData(fixture.XlStr("品名"), fixture.XlStr("りんご\n青森産"), fixture.XlStr(`特"A"級`),
			// "ABCDEFあいう": compressed characters, continued as UTF-16
			uint16(9), uint8(0), "ABCDEF"),
		fixture.BiffData(uint8(1), fixture.U16s("あいう"),
			// rich (1 run) and extended (4 bytes) "rich"; its runs
			// continue in the next record without a flag byte
			uint16(4), uint8(0x0C), uint16(1), uint32(4), "rich", uint16(0)),
		fixture.BiffData(uint16(0), make([]byte, 4), fixture.XlStr("end")),
	)
	globals := func(b *fixture.Biff) {
		b.Rec(biff.RCodePage, 1200)
		b.Rec(biff.RDateMode, 0)
		b.Rec(biff.RFormat, 164, fixture.XlStr("0.00"))
		b.Rec(biff.RFormat, 165, fixture.XlStr(`yyyy"年"m"月"d"日"`))
	}
	main := func(b *fixture.Biff) {
		b.Rec(biff.RHeader, fixture.XlStr("&L左&C&P / &N&R右"))
		b.Rec(biff.RFooter, fixture.XlStr("&C社外秘"))
		b.Rec(biff.RLabelSST, 0, 0, 0, uint32(0))
		b.Rec(biff.RLabelSST, 0, 1, 0, uint32(1))
		b.Rec(biff.RLabelSST, 0, 3, 0, uint32(2))
		b.Rec(biff.RNumber, 2, 0, 0, 1234.5)
		b.Rec(biff.RNumber, 2, 1, 1, 45306.0)
		b.Rec(biff.RRK, 2, 2, 3, fixture.RkInt(1234567, false))
		b.Rec(biff.RRK, 2, 3, 2, fixture.RkInt(12345, true))
		b.Rec(biff.RRK, 2, 4, 6, uint32(0x3FE00000))
		b.Rec(biff.RMulRK, 3, 0, 0, fixture.RkInt(1, false), 0, fixture.RkInt(2, false), 2, fixture.RkInt(3, false), 2)
		b.Rec(biff.RBoolErr, 4, 0, 0, uint8(1), uint8(0))
		b.Rec(biff.RBoolErr, 4, 1, 0, uint8(0x07), uint8(1))
		b.Rec(0x0201, 4, 2, 0) // BLANK
		b.Rec(biff.RLabel, 4, 3, 0, fixture.XlStr("直接"))
		b.Rec(biff.RFormula, 5, 0, 2, 3.14159, uint16(0), uint32(0), uint16(0))
		b.Rec(biff.RFormula, 5, 1, 0, uint8(0), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.Rec(0x04BC, make([]byte, 8)) // SHRFMLA between FORMULA and STRING
		b.Rec(biff.RStr, fixture.XlStr("結果"))
		b.Rec(biff.RFormula, 5, 2, 0, uint8(1), uint8(0), uint8(0), make([]byte, 3), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.Rec(biff.RFormula, 5, 3, 0, uint8(2), uint8(0), uint8(0x2A), make([]byte, 3), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.Rec(biff.RFormula, 5, 4, 0, uint8(3), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.Rec(biff.RFormula, 5, 5, 0, uint8(0), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.Rec(biff.RStr, uint16(6), uint8(0), "abc")
		b.Rec(biff.RContinue, uint8(1), fixture.U16s("漢字X"))
		b.Rec(biff.RLabelSST, 5, 6, 4, uint32(3))
		b.Rec(biff.RLabelSST, 6, 0, 0, uint32(4))
		b.Rec(biff.RLabelSST, 6, 1, 0, uint32(5))
		b.Rec(biff.RNumber, 6, 2, 5, 45306.75)
		b.Rec(biff.RLabelSST, 6, 3, 0, uint32(99)) // outside the table: empty
		// A text box anchored at F2 and a comment on D5.
		b.Rec(biff.RMsoDrawing, officeArtShape(5, 1))
		b.Rec(biff.RObj, objCmo(0x06, 2))
		b.Rec(biff.RMsoDrawing, fixture.BiffData(uint16(0), uint16(0xF00D), uint32(0)))
		txo(b, "納期は\n\n別途相談")
		b.Rec(biff.RMsoDrawing, officeArtShape(4, 3))
		b.Rec(biff.RObj, objCmo(biff.ObjNote, 1))
		b.Rec(biff.RMsoDrawing, fixture.BiffData(uint16(0), uint16(0xF00D), uint32(0)))
		txo(b, "山田:\n至急確認")
		// A picture has no text.
		b.Rec(biff.RMsoDrawing, officeArtShape(0, 9))
		b.Rec(biff.RObj, objCmo(0x08, 3))
		b.Rec(biff.RNote, 4, 3, 0, 1, fixture.XlStr("山田"), uint8(0))
	}
	return fixture.BuildBIFF8(globals, []int{0, 14, 164, 3, 49, 165, 9}, sst, []fixture.XlsSheetSpec{
		{Name: "売上", Body: main},
		{Name: "Hidden", State: 1, Body: func(b *fixture.Biff) { b.Rec(biff.RLabel, 0, 0, 0, fixture.XlStr("secret")) }},
		{Name: "VeryHidden", State: 2, Body: func(b *fixture.Biff) { b.Rec(biff.RLabel, 0, 0, 0, fixture.XlStr("secret")) }},
		{Name: "Chart", Dt: 2},
		{Name: "第2", Body: func(b *fixture.Biff) { b.Rec(biff.RLabel, 0, 0, 0, fixture.XlStr("two")) }},
		{Name: "empty"},
	})
}

// biff5Book is a BIFF5 (Excel 95) workbook in code page 932.
func biff5Book(tb testing.TB) []byte {
	var g fixture.Biff
	g.Rec(biff.RBOF, 0x0500, 0x0005, 0, 0)
	g.Rec(biff.RCodePage, 932)
	g.Rec(biff.RFormat, 164, uint8(len(SJIS(tb, `#,##0"円"`))), SJIS(tb, `#,##0"円"`))
	g.Rec(biff.RXF, 0, 0, make([]byte, 12))
	g.Rec(biff.RXF, 0, 164, make([]byte, 12))
	bs := g.Buf.Len() + 4
	name := SJIS(tb, "見積")
	g.Rec(biff.RBoundSheet, uint32(0), uint8(0), uint8(0), uint8(len(name)), name)
	g.Rec(biff.REOF)
	out := g.Buf.Bytes()
	fixture.PutLE32(out[bs:], uint32(len(out)))
	var s fixture.Biff
	s.Rec(biff.RBOF, 0x0500, 0x0010, 0, 0)
	h := SJIS(tb, "&Cヘッダ")
	s.Rec(biff.RHeader, uint8(len(h)), h)
	l := SJIS(tb, "単価")
	s.Rec(biff.RLabel, 0, 0, 0, len(l), l)
	s.Rec(biff.RNumber, 0, 1, 1, 1200.0)
	s.Rec(biff.RFormula, 0, 2, 0, uint8(0), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
	v := SJIS(tb, "文字列")
	s.Rec(biff.RStr, len(v), v)
	m := SJIS(tb, "メモ")
	s.Rec(biff.RNote, 0, 0, len(m), m)
	s.Rec(biff.REOF)
	return append(out, s.Buf.Bytes()...)
}

func TestXlsNative(t *testing.T) {
	ls := "\u2028"
	tests := []struct {
		name string
		file []byte
		want []extract.Place
		msg  string // expected Error.Msg when want is nil
	}{
		{
			name: "biff8",
			file: fixture.CfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)}),
			want: []extract.Place{
				{Name: "売上", Lines: []string{
					"品名\t\"りんご" + ls + "青森産\"\t\t\"特\"\"A\"\"級\"",
					"",
					"1234.5\t2024/1/15\t1,234,567\t123.45\t50%",
					"1\t2\t3.00",
					"TRUE\t#DIV/0!\t\t直接",
					"3.14\t結果\tFALSE\t#N/A\t\tabc漢字X\tABCDEFあいう",
					"rich\tend\t2024年1月15日",
				}},
				{Name: "売上[図形]", Lines: []string{"F2\t\"納期は" + ls + "別途相談\""}},
				{Name: "売上[コメント]", Lines: []string{"D5\t\"山田:" + ls + "至急確認\""}},
				{Name: "売上[ヘッダー・フッター]", Lines: []string{"左", "/", "右", "社外秘"}},
				{Name: "第2", Lines: []string{"two"}},
			},
		},
		{
			name: "biff5 shift_jis",
			file: fixture.CfbFile(t, map[string][]byte{"Book": biff5Book(t)}),
			want: []extract.Place{
				{Name: "見積", Lines: []string{"単価\t1,200円\t文字列"}},
				{Name: "見積[コメント]", Lines: []string{"A1\tメモ"}},
				{Name: "見積[ヘッダー・フッター]", Lines: []string{"ヘッダ"}},
			},
		},
		{
			name: "date1904",
			file: fixture.CfbFile(t, map[string][]byte{"Workbook": fixture.BuildBIFF8(func(b *fixture.Biff) { b.Rec(biff.RDateMode, 1) },
				[]int{14}, nil, []fixture.XlsSheetSpec{{Name: "S", Body: func(b *fixture.Biff) { b.Rec(biff.RNumber, 0, 0, 0, 0.0) }}})}),
			want: []extract.Place{{Name: "S", Lines: []string{"1904/1/1"}}},
		},
		{
			name: "password",
			file: fixture.CfbFile(t, map[string][]byte{"Workbook": fixture.BuildBIFF8(func(b *fixture.Biff) {
				b.Rec(biff.RFilePass, uint16(0), uint16(0x1234), uint16(0x5678))
			}, nil, nil, []fixture.XlsSheetSpec{{Name: "S"}})}),
			msg: extract.MsgPassword,
		},
		{
			name: "rights",
			file: fixture.CfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t), "\x06DataSpaces": make([]byte, 16)}),
			msg:  extract.MsgRights,
		},
		{name: "not a compound file", file: []byte("a,b\n1,2\n"), msg: extract.MsgCorrupt},
		{name: "no workbook stream", file: fixture.CfbFile(t, map[string][]byte{"Other": make([]byte, 64)}), msg: extract.MsgCorrupt},
		{
			name: "biff2",
			file: fixture.CfbFile(t, map[string][]byte{"Book": fixture.BiffData(uint16(0x0009), uint16(4), uint16(0), uint16(0x10))}),
			msg:  extract.MsgCorrupt,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fixture.WriteTemp(t, "in.xls", tt.file)
			res, err := readXlsNative(context.Background(), p, extract.Options{Scratch: t.TempDir()})
			if tt.want == nil {
				var e *extract.Error
				if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, tt.msg) {
					t.Fatalf("readXlsNative() = %v, %v; want error %q", res, err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("readXlsNative() error %v (%v)", err, errors.Unwrap(err))
			}
			if !reflect.DeepEqual(res.Places, tt.want) {
				t.Errorf("readXlsNative() places:\n%s\nwant:\n%s", fixture.NativeRender(res, nil), fixture.NativeRender(&extract.Result{Places: tt.want}, nil))
			}
		})
	}
}

// TestXlsSSTContinue splits strings at every kind of CONTINUE boundary.
func TestXlsSSTContinue(t *testing.T) {
	tests := []struct {
		name   string
		pieces [][]byte
		want   []string
	}{
		{"boundary between strings", [][]byte{fixture.XlStr("a"), fixture.XlStr("b")}, []string{"a", "b"}},
		{"header then characters in next record", [][]byte{fixture.BiffData(uint16(2), uint8(1)), fixture.BiffData(uint8(1), fixture.U16s("日本"))}, []string{"日本"}},
		{"utf16 continued as compressed", [][]byte{fixture.BiffData(uint16(3), uint8(1), fixture.U16s("日")), fixture.BiffData(uint8(0), "ab")}, []string{"日ab"}},
		{"ext data split", [][]byte{fixture.BiffData(uint16(1), uint8(0x04), uint32(6), "x", uint16(0)), fixture.BiffData(make([]byte, 4), fixture.XlStr("y"))}, []string{"x", "y"}},
		{"count larger than data", [][]byte{fixture.XlStr("only")}, []string{"only"}},
		{"truncated string", [][]byte{fixture.BiffData(uint16(50), uint8(0), "abc")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One LABELSST cell per string, in column A.
			cells := func(b *fixture.Biff) {
				for i := range 3 {
					b.Rec(biff.RLabelSST, i, 0, 0, uint32(i))
				}
			}
			sst := fixture.SstRecords(1000, 1000, tt.pieces...)
			stream := fixture.BuildBIFF8(nil, nil, sst, []fixture.XlsSheetSpec{{Name: "S", Body: cells}})
			p := fixture.WriteTemp(t, "in.xls", fixture.CfbFile(t, map[string][]byte{"Workbook": stream}))
			res, err := readXlsNative(context.Background(), p, extract.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, pl := range res.Places {
				got = append(got, pl.Lines...)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("cells = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestXlsLimits: a lying string count allocates nothing, too much text
// is MsgOutOfMemory, a cancelled context stops the reader.
func TestXlsLimits(t *testing.T) {
	t.Run("huge unique count", func(t *testing.T) {
		sst := fixture.SstRecords(0x7FFFFFFF, 0x7FFFFFFF, fixture.XlStr("a"))
		stream := fixture.BuildBIFF8(nil, nil, sst, []fixture.XlsSheetSpec{{Name: "S", Body: func(b *fixture.Biff) { b.Rec(biff.RLabelSST, 0, 0, 0, uint32(0)) }}})
		p := fixture.WriteTemp(t, "in.xls", fixture.CfbFile(t, map[string][]byte{"Workbook": stream}))
		var before, after runtimeMem
		before.read()
		if _, err := readXlsNative(context.Background(), p, extract.Options{}); err != nil {
			t.Fatal(err)
		}
		after.read()
		if d := after.total - before.total; d > 16<<20 {
			t.Errorf("reading a 1-string table with a count of 2^31 allocated %d bytes", d)
		}
	})
	t.Run("text cap", func(t *testing.T) {
		old := sheet.TextCap
		sheet.TextCap = 300
		defer func() { sheet.TextCap = old }()
		p := fixture.WriteTemp(t, "in.xls", fixture.CfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)}))
		_, err := readXlsNative(context.Background(), p, extract.Options{})
		var e *extract.Error
		if !errors.As(err, &e) || e.Msg != extract.MsgOutOfMemory {
			t.Fatalf("readXlsNative() error %v, want %q", err, extract.MsgOutOfMemory)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		p := fixture.WriteTemp(t, "in.xls", fixture.CfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)}))
		if _, err := readXlsNative(ctx, p, extract.Options{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("readXlsNative(cancelled) error %v, want context.Canceled", err)
		}
	})
}

// TestXlsTruncated cuts the test workbook at many lengths: every cut
// gives places or an *Error, never a panic.
func TestXlsTruncated(t *testing.T) {
	stream := basicBIFF8(t)
	for n := 0; n < len(stream); n += 7 {
		p := fixture.WriteTemp(t, "in.xls", fixture.CfbFile(t, map[string][]byte{"Workbook": stream[:n]}))
		res, err := readXlsNative(context.Background(), p, extract.Options{})
		if err != nil {
			var e *extract.Error
			if !errors.As(err, &e) {
				t.Fatalf("cut at %d: error %v is no *Error", n, err)
			}
			if strings.Contains(e.Error(), "panic") {
				t.Fatalf("cut at %d: %v", n, e.Cause)
			}
			continue
		}
		if res == nil {
			t.Fatalf("cut at %d: nil result without error", n)
		}
	}
}

// runtimeMem samples the bytes allocated so far.
type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	m.total = s.TotalAlloc
}

// rc4FilePass is a FILEPASS record body for RC4 encryption with password.
func rc4FilePass(password string) []byte {
	salt := []byte("0123456789abcdef")
	verifier := []byte("fedcba9876543210")
	sum := md5.Sum(verifier)
	c, _ := rc4.NewCipher(biff.RC4Keys(salt, biff.UTF16LE(password))(0))
	enc := make([]byte, 32)
	c.XORKeyStream(enc[:16], verifier)
	c.XORKeyStream(enc[16:], sum[:])
	return fixture.BiffData(uint16(1), uint16(1), uint16(1), salt, enc)
}

// encryptAfterFilePass encrypts, in place, every record after the
// FILEPASS record of a BIFF8 stream (the cipher is symmetric).
func encryptAfterFilePass(t *testing.T, stream []byte) []byte {
	var d *biff.Decrypter
	for off := 0; off+4 <= len(stream); {
		typ := uint16(biff.Le16(stream, off))
		n := biff.Le16(stream, off+2)
		data := stream[off+4 : off+4+n]
		if d != nil {
			d.Record(typ, int64(off+4), data)
		}
		if typ == biff.RFilePass {
			var err error
			if d, err = biff.NewDecrypter(data); err != nil {
				t.Fatal(err)
			}
		}
		off += 4 + n
	}
	return stream
}

func TestXlsDefaultPassword(t *testing.T) {
	plain := fixture.CfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)})
	want, err := readXlsNative(context.Background(), fixture.WriteTemp(t, "plain.xls", plain), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	build := func(password string) []byte {
		inner := basicBIFF8(t)
		// Rebuild with a FILEPASS right after the BOF.
		bof := 4 + biff.Le16(inner, 2)
		var b fixture.Biff
		b.Rec(biff.RFilePass, rc4FilePass(password))
		stream := append(append(append([]byte(nil), inner[:bof]...), b.Buf.Bytes()...), inner[bof:]...)
		// BoundSheet offsets move by the inserted record.
		shift := uint32(b.Buf.Len())
		for off := 0; off+4 <= len(stream); {
			typ := uint16(biff.Le16(stream, off))
			n := biff.Le16(stream, off+2)
			if typ == biff.RBoundSheet {
				fixture.PutLE32(stream[off+4:], biff.Le32(stream, off+4)+shift)
			}
			if typ == biff.REOF {
				break
			}
			off += 4 + n
		}
		return stream
	}
	t.Run("VelvetSweatshop", func(t *testing.T) {
		stream := encryptAfterFilePass(t, build(biff.DefaultPassword))
		p := fixture.WriteTemp(t, "enc.xls", fixture.CfbFile(t, map[string][]byte{"Workbook": stream}))
		got, err := readXlsNative(context.Background(), p, extract.Options{})
		if err != nil {
			t.Fatalf("readXlsNative(default password) error %v", err)
		}
		if !reflect.DeepEqual(got.Places, want.Places) {
			t.Errorf("decrypted places:\n%s\nwant:\n%s", fixture.NativeRender(got, nil), fixture.NativeRender(want, nil))
		}
	})
	t.Run("other password", func(t *testing.T) {
		stream := build("secret")
		p := fixture.WriteTemp(t, "enc.xls", fixture.CfbFile(t, map[string][]byte{"Workbook": stream}))
		_, err := readXlsNative(context.Background(), p, extract.Options{})
		var e *extract.Error
		if !errors.As(err, &e) || e.Msg != extract.MsgPassword {
			t.Fatalf("readXlsNative(password) error %v, want %q", err, extract.MsgPassword)
		}
	})
}
