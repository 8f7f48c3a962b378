package extract

import (
	"context"
	"crypto/md5"
	"crypto/rc4"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
)

// xlsSJIS encodes s in Shift_JIS (code page 932).
func xlsSJIS(tb testing.TB, s string) []byte {
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
	anchor := biffData(uint16(0), col, 0, row, 0, col+2, 0, row+3, 0)
	sp := biffData(uint16(0x0002), uint16(0xF00A), uint32(8), uint32(1025), uint32(0xA00))
	an := append(biffData(uint16(0), uint16(0xF010), uint32(len(anchor))), anchor...)
	cd := biffData(uint16(0), uint16(0xF011), uint32(0))
	body := append(append(sp, an...), cd...)
	return append(biffData(uint16(0x000F), uint16(0xF004), uint32(len(body))), body...)
}

// objCmo is an OBJ record body with only its FtCmo and FtEnd.
func objCmo(ot, id int) []byte {
	return biffData(uint16(0x15), uint16(0x12), ot, id, uint16(0x6011), make([]byte, 12), uint32(0))
}

// txo writes a TXO record and its text and run CONTINUE records.
func txo(b *biff, text string) {
	n := len([]rune(text))
	b.rec(xlsRTxO, uint16(0x0212), uint16(0), make([]byte, 6), n, uint16(16), uint16(0), uint32(0))
	b.rec(xlsRContinue, uint8(1), u16s(text))
	b.rec(xlsRContinue, make([]byte, 16))
}

// basicBIFF8 is the main BIFF8 test workbook (see TestXlsNative).
func basicBIFF8(tb testing.TB) []byte {
	sst := sstRecords(7, 6,
		biffData(xlStr("品名"), xlStr("りんご\n青森産"), xlStr(`特"A"級`),
			// "ABCDEFあいう": compressed characters, continued as UTF-16
			uint16(9), uint8(0), "ABCDEF"),
		biffData(uint8(1), u16s("あいう"),
			// rich (1 run) and extended (4 bytes) "rich"; its runs
			// continue in the next record without a flag byte
			uint16(4), uint8(0x0C), uint16(1), uint32(4), "rich", uint16(0)),
		biffData(uint16(0), make([]byte, 4), xlStr("end")),
	)
	globals := func(b *biff) {
		b.rec(xlsRCodePage, 1200)
		b.rec(xlsRDateMode, 0)
		b.rec(xlsRFormat, 164, xlStr("0.00"))
		b.rec(xlsRFormat, 165, xlStr(`yyyy"年"m"月"d"日"`))
	}
	main := func(b *biff) {
		b.rec(xlsRHeader, xlStr("&L左&C&P / &N&R右"))
		b.rec(xlsRFooter, xlStr("&C社外秘"))
		b.rec(xlsRLabelSST, 0, 0, 0, uint32(0))
		b.rec(xlsRLabelSST, 0, 1, 0, uint32(1))
		b.rec(xlsRLabelSST, 0, 3, 0, uint32(2))
		b.rec(xlsRNumber, 2, 0, 0, 1234.5)
		b.rec(xlsRNumber, 2, 1, 1, 45306.0)
		b.rec(xlsRRK, 2, 2, 3, rkInt(1234567, false))
		b.rec(xlsRRK, 2, 3, 2, rkInt(12345, true))
		b.rec(xlsRRK, 2, 4, 6, uint32(0x3FE00000))
		b.rec(xlsRMulRK, 3, 0, 0, rkInt(1, false), 0, rkInt(2, false), 2, rkInt(3, false), 2)
		b.rec(xlsRBoolErr, 4, 0, 0, uint8(1), uint8(0))
		b.rec(xlsRBoolErr, 4, 1, 0, uint8(0x07), uint8(1))
		b.rec(0x0201, 4, 2, 0) // BLANK
		b.rec(xlsRLabel, 4, 3, 0, xlStr("直接"))
		b.rec(xlsRFormula, 5, 0, 2, 3.14159, uint16(0), uint32(0), uint16(0))
		b.rec(xlsRFormula, 5, 1, 0, uint8(0), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.rec(0x04BC, make([]byte, 8)) // SHRFMLA between FORMULA and STRING
		b.rec(xlsRStr, xlStr("結果"))
		b.rec(xlsRFormula, 5, 2, 0, uint8(1), uint8(0), uint8(0), make([]byte, 3), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.rec(xlsRFormula, 5, 3, 0, uint8(2), uint8(0), uint8(0x2A), make([]byte, 3), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.rec(xlsRFormula, 5, 4, 0, uint8(3), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.rec(xlsRFormula, 5, 5, 0, uint8(0), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
		b.rec(xlsRStr, uint16(6), uint8(0), "abc")
		b.rec(xlsRContinue, uint8(1), u16s("漢字X"))
		b.rec(xlsRLabelSST, 5, 6, 4, uint32(3))
		b.rec(xlsRLabelSST, 6, 0, 0, uint32(4))
		b.rec(xlsRLabelSST, 6, 1, 0, uint32(5))
		b.rec(xlsRNumber, 6, 2, 5, 45306.75)
		b.rec(xlsRLabelSST, 6, 3, 0, uint32(99)) // outside the table: empty
		// A text box anchored at F2 and a comment on D5.
		b.rec(xlsRMsoDrawing, officeArtShape(5, 1))
		b.rec(xlsRObj, objCmo(0x06, 2))
		b.rec(xlsRMsoDrawing, biffData(uint16(0), uint16(0xF00D), uint32(0)))
		txo(b, "納期は\n\n別途相談")
		b.rec(xlsRMsoDrawing, officeArtShape(4, 3))
		b.rec(xlsRObj, objCmo(xlsObjNote, 1))
		b.rec(xlsRMsoDrawing, biffData(uint16(0), uint16(0xF00D), uint32(0)))
		txo(b, "山田:\n至急確認")
		// A picture has no text.
		b.rec(xlsRMsoDrawing, officeArtShape(0, 9))
		b.rec(xlsRObj, objCmo(0x08, 3))
		b.rec(xlsRNote, 4, 3, 0, 1, xlStr("山田"), uint8(0))
	}
	return buildBIFF8(globals, []int{0, 14, 164, 3, 49, 165, 9}, sst, []xlsSheetSpec{
		{name: "売上", body: main},
		{name: "Hidden", state: 1, body: func(b *biff) { b.rec(xlsRLabel, 0, 0, 0, xlStr("secret")) }},
		{name: "VeryHidden", state: 2, body: func(b *biff) { b.rec(xlsRLabel, 0, 0, 0, xlStr("secret")) }},
		{name: "Chart", dt: 2},
		{name: "第2", body: func(b *biff) { b.rec(xlsRLabel, 0, 0, 0, xlStr("two")) }},
		{name: "empty"},
	})
}

// biff5Book is a BIFF5 (Excel 95) workbook in code page 932.
func biff5Book(tb testing.TB) []byte {
	var g biff
	g.rec(xlsRBOF, 0x0500, 0x0005, 0, 0)
	g.rec(xlsRCodePage, 932)
	g.rec(xlsRFormat, 164, uint8(len(xlsSJIS(tb, `#,##0"円"`))), xlsSJIS(tb, `#,##0"円"`))
	g.rec(xlsRXF, 0, 0, make([]byte, 12))
	g.rec(xlsRXF, 0, 164, make([]byte, 12))
	bs := g.buf.Len() + 4
	name := xlsSJIS(tb, "見積")
	g.rec(xlsRBoundSheet, uint32(0), uint8(0), uint8(0), uint8(len(name)), name)
	g.rec(xlsREOF)
	out := g.buf.Bytes()
	putLE32(out[bs:], uint32(len(out)))
	var s biff
	s.rec(xlsRBOF, 0x0500, 0x0010, 0, 0)
	h := xlsSJIS(tb, "&Cヘッダ")
	s.rec(xlsRHeader, uint8(len(h)), h)
	l := xlsSJIS(tb, "単価")
	s.rec(xlsRLabel, 0, 0, 0, len(l), l)
	s.rec(xlsRNumber, 0, 1, 1, 1200.0)
	s.rec(xlsRFormula, 0, 2, 0, uint8(0), make([]byte, 5), uint16(0xFFFF), uint16(0), uint32(0), uint16(0))
	v := xlsSJIS(tb, "文字列")
	s.rec(xlsRStr, len(v), v)
	m := xlsSJIS(tb, "メモ")
	s.rec(xlsRNote, 0, 0, len(m), m)
	s.rec(xlsREOF)
	return append(out, s.buf.Bytes()...)
}

func putLE32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// writeTemp writes data into a file of the test's temporary folder.
func writeTemp(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestXlsNative(t *testing.T) {
	ls := "\u2028"
	tests := []struct {
		name string
		file []byte
		want []Place
		msg  string // expected Error.Msg when want is nil
	}{
		{
			name: "biff8",
			file: cfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)}),
			want: []Place{
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
			file: cfbFile(t, map[string][]byte{"Book": biff5Book(t)}),
			want: []Place{
				{Name: "見積", Lines: []string{"単価\t1,200円\t文字列"}},
				{Name: "見積[コメント]", Lines: []string{"A1\tメモ"}},
				{Name: "見積[ヘッダー・フッター]", Lines: []string{"ヘッダ"}},
			},
		},
		{
			name: "date1904",
			file: cfbFile(t, map[string][]byte{"Workbook": buildBIFF8(func(b *biff) { b.rec(xlsRDateMode, 1) },
				[]int{14}, nil, []xlsSheetSpec{{name: "S", body: func(b *biff) { b.rec(xlsRNumber, 0, 0, 0, 0.0) }}})}),
			want: []Place{{Name: "S", Lines: []string{"1904/1/1"}}},
		},
		{
			name: "password",
			file: cfbFile(t, map[string][]byte{"Workbook": buildBIFF8(func(b *biff) {
				b.rec(xlsRFilePass, uint16(0), uint16(0x1234), uint16(0x5678))
			}, nil, nil, []xlsSheetSpec{{name: "S"}})}),
			msg: MsgPassword,
		},
		{
			name: "rights",
			file: cfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t), "\x06DataSpaces": make([]byte, 16)}),
			msg:  MsgRights,
		},
		{name: "not a compound file", file: []byte("a,b\n1,2\n"), msg: MsgCorrupt},
		{name: "no workbook stream", file: cfbFile(t, map[string][]byte{"Other": make([]byte, 64)}), msg: MsgCorrupt},
		{
			name: "biff4",
			file: cfbFile(t, map[string][]byte{"Book": biffData(uint16(0x0409), uint16(6), uint16(0), uint16(0x10), uint16(0))}),
			msg:  MsgCorrupt,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeTemp(t, "in.xls", tt.file)
			res, err := readXlsNative(context.Background(), p, Options{Scratch: t.TempDir()})
			if tt.want == nil {
				var e *Error
				if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, tt.msg) {
					t.Fatalf("readXlsNative() = %v, %v; want error %q", res, err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("readXlsNative() error %v (%v)", err, errors.Unwrap(err))
			}
			if !reflect.DeepEqual(res.Places, tt.want) {
				t.Errorf("readXlsNative() places:\n%s\nwant:\n%s", nativeRender(res, nil), nativeRender(&Result{Places: tt.want}, nil))
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
		{"boundary between strings", [][]byte{xlStr("a"), xlStr("b")}, []string{"a", "b"}},
		{"header then characters in next record", [][]byte{biffData(uint16(2), uint8(1)), biffData(uint8(1), u16s("日本"))}, []string{"日本"}},
		{"utf16 continued as compressed", [][]byte{biffData(uint16(3), uint8(1), u16s("日")), biffData(uint8(0), "ab")}, []string{"日ab"}},
		{"ext data split", [][]byte{biffData(uint16(1), uint8(0x04), uint32(6), "x", uint16(0)), biffData(make([]byte, 4), xlStr("y"))}, []string{"x", "y"}},
		{"count larger than data", [][]byte{xlStr("only")}, []string{"only"}},
		{"truncated string", [][]byte{biffData(uint16(50), uint8(0), "abc")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sst := sstRecords(1000, 1000, tt.pieces...)
			stream := buildBIFF8(nil, nil, sst, nil)
			b := &xlsBook{ctx: context.Background(), rr: newXlsRecordReader(strings.NewReader(string(stream))), styles: newXlStyles(), budget: newXlsBudget()}
			if err := b.readGlobals(false); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(b.sst, tt.want) && !(len(b.sst) == 0 && len(tt.want) == 0) {
				t.Errorf("sst = %q, want %q", b.sst, tt.want)
			}
		})
	}
}

// TestXlsLimits: a lying string count allocates nothing, too much text
// is MsgOutOfMemory, a cancelled context stops the reader.
func TestXlsLimits(t *testing.T) {
	t.Run("huge unique count", func(t *testing.T) {
		sst := sstRecords(0x7FFFFFFF, 0x7FFFFFFF, xlStr("a"))
		stream := buildBIFF8(nil, nil, sst, []xlsSheetSpec{{name: "S", body: func(b *biff) { b.rec(xlsRLabelSST, 0, 0, 0, uint32(0)) }}})
		p := writeTemp(t, "in.xls", cfbFile(t, map[string][]byte{"Workbook": stream}))
		var before, after runtimeMem
		before.read()
		if _, err := readXlsNative(context.Background(), p, Options{}); err != nil {
			t.Fatal(err)
		}
		after.read()
		if d := after.total - before.total; d > 16<<20 {
			t.Errorf("reading a 1-string table with a count of 2^31 allocated %d bytes", d)
		}
	})
	t.Run("text cap", func(t *testing.T) {
		old := xlsTextCap
		xlsTextCap = 300
		defer func() { xlsTextCap = old }()
		p := writeTemp(t, "in.xls", cfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)}))
		_, err := readXlsNative(context.Background(), p, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Msg != MsgOutOfMemory {
			t.Fatalf("readXlsNative() error %v, want %q", err, MsgOutOfMemory)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		p := writeTemp(t, "in.xls", cfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)}))
		if _, err := readXlsNative(ctx, p, Options{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("readXlsNative(cancelled) error %v, want context.Canceled", err)
		}
	})
}

// TestXlsTruncated cuts the test workbook at many lengths: every cut
// gives places or an *Error, never a panic.
func TestXlsTruncated(t *testing.T) {
	stream := basicBIFF8(t)
	for n := 0; n < len(stream); n += 7 {
		p := writeTemp(t, "in.xls", cfbFile(t, map[string][]byte{"Workbook": stream[:n]}))
		res, err := readXlsNative(context.Background(), p, Options{})
		if err != nil {
			var e *Error
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
	c, _ := rc4.NewCipher(xlsRC4Keys(salt, xlsUTF16LE(password))(0))
	enc := make([]byte, 32)
	c.XORKeyStream(enc[:16], verifier)
	c.XORKeyStream(enc[16:], sum[:])
	return biffData(uint16(1), uint16(1), uint16(1), salt, enc)
}

// encryptAfterFilePass encrypts, in place, every record after the
// FILEPASS record of a BIFF8 stream (the cipher is symmetric).
func encryptAfterFilePass(t *testing.T, stream []byte) []byte {
	var d *xlsDecrypter
	for off := 0; off+4 <= len(stream); {
		typ := uint16(le16(stream, off))
		n := le16(stream, off+2)
		data := stream[off+4 : off+4+n]
		if d != nil {
			d.record(typ, int64(off+4), data)
		}
		if typ == xlsRFilePass {
			var err error
			if d, err = newXlsDecrypter(data); err != nil {
				t.Fatal(err)
			}
		}
		off += 4 + n
	}
	return stream
}

func TestXlsDefaultPassword(t *testing.T) {
	plain := cfbFile(t, map[string][]byte{"Workbook": basicBIFF8(t)})
	want, err := readXlsNative(context.Background(), writeTemp(t, "plain.xls", plain), Options{})
	if err != nil {
		t.Fatal(err)
	}
	build := func(password string) []byte {
		inner := basicBIFF8(t)
		// Rebuild with a FILEPASS right after the BOF.
		bof := 4 + le16(inner, 2)
		var b biff
		b.rec(xlsRFilePass, rc4FilePass(password))
		stream := append(append(append([]byte(nil), inner[:bof]...), b.buf.Bytes()...), inner[bof:]...)
		// BoundSheet offsets move by the inserted record.
		shift := uint32(b.buf.Len())
		for off := 0; off+4 <= len(stream); {
			typ := uint16(le16(stream, off))
			n := le16(stream, off+2)
			if typ == xlsRBoundSheet {
				putLE32(stream[off+4:], le32(stream, off+4)+shift)
			}
			if typ == xlsREOF {
				break
			}
			off += 4 + n
		}
		return stream
	}
	t.Run("VelvetSweatshop", func(t *testing.T) {
		stream := encryptAfterFilePass(t, build(xlsDefaultPassword))
		p := writeTemp(t, "enc.xls", cfbFile(t, map[string][]byte{"Workbook": stream}))
		got, err := readXlsNative(context.Background(), p, Options{})
		if err != nil {
			t.Fatalf("readXlsNative(default password) error %v", err)
		}
		if !reflect.DeepEqual(got.Places, want.Places) {
			t.Errorf("decrypted places:\n%s\nwant:\n%s", nativeRender(got, nil), nativeRender(want, nil))
		}
	})
	t.Run("other password", func(t *testing.T) {
		stream := build("secret")
		p := writeTemp(t, "enc.xls", cfbFile(t, map[string][]byte{"Workbook": stream}))
		_, err := readXlsNative(context.Background(), p, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Msg != MsgPassword {
			t.Fatalf("readXlsNative(password) error %v, want %q", err, MsgPassword)
		}
	})
}
