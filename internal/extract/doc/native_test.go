package doc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	fixturepkg "github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/extract/ppt"
	"github.com/fumibako/fumibako/internal/testutil"
)

// Tests of the native Word and PowerPoint readers. The fixtures in
// testdata/legacy are made by LibreOffice from the flat ODF sources beside
// them (gen.sh); the expected places are golden files under
// testdata/TestDocPptNative, rewritten with -update. Small files built
// here cover the piece table and the failures.

// legacyRender prints a result like the package's golden files
// (fixture.RenderResult, the form of every reader's goldens).
func legacyRender(res *extract.Result, err error) string { return fixturepkg.RenderResult(res, err) }

// legacyGolden compares got with testdata/TestDocPptNative/<name>.golden
// of package extract, rewriting it under -update.
func legacyGolden(t *testing.T, name, got string) {
	t.Helper()
	testutil.Golden(t, filepath.Join("..", "testdata", "TestDocPptNative", name+".golden"), []byte(got))
}

// fib97 builds a WordDocument stream: a Word 97 FIB with ccpText and
// the CLX at offset 0 of the table stream, followed by text at offset 1024.
func fib97(flags uint16, ccpText int, lcbClx int, text []byte) []byte {
	b := make([]byte, 1024)
	le := binary.LittleEndian
	le.PutUint16(b[0:], ident)
	le.PutUint16(b[2:], minNFib)
	le.PutUint16(b[10:], flags|0x0200) // the table is 1Table
	le.PutUint16(b[32:], 14)           // csw
	le.PutUint16(b[62:], 22)           // cslw
	le.PutUint32(b[64+4*3:], uint32(ccpText))
	le.PutUint16(b[152:], 0x5D) // cbRgFcLcb
	le.PutUint32(b[154+8*fcClx+4:], uint32(lcbClx))
	return append(b, text...)
}

// pieces builds a table stream holding only a CLX with the given pieces
// (each its character count, file offset and compression).
func pieces(pieces ...[3]int) []byte {
	le := binary.LittleEndian
	var plc []byte
	cp := 0
	plc = le.AppendUint32(plc, 0)
	for _, p := range pieces {
		cp += p[0]
		plc = le.AppendUint32(plc, uint32(cp))
	}
	for _, p := range pieces {
		fc := uint32(p[1])
		if p[2] == 1 {
			fc = uint32(p[1])*2 | 0x40000000
		}
		plc = append(plc, 0, 0)
		plc = le.AppendUint32(plc, fc)
		plc = append(plc, 0, 0)
	}
	clx := []byte{0x02}
	clx = le.AppendUint32(clx, uint32(len(plc)))
	return append(clx, plc...)
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// built is a small Word document: a compressed piece (Windows-1252)
// and a Unicode piece with a TAB, a HYPERLINK field, a page break and a
// line break.
func built(tb testing.TB, flags uint16) []byte {
	tb.Helper()
	ansi := []byte("Hello \x93caf\xe9\x94\r")
	uni := "日本語\t表\r\x13 HYPERLINK \"https://example.com\" \x14リンク\x15です\r\x0c次の\x0bページ\r"
	n2 := len(utf16.Encode([]rune(uni)))
	text := append(append([]byte{}, ansi...), utf16le(uni)...)
	table := pieces([3]int{len(ansi), 1024, 1}, [3]int{n2, 1024 + len(ansi), 0})
	word := fib97(flags, len(ansi)+n2, len(table), text)
	return fixturepkg.CfbFile(tb, map[string][]byte{"WordDocument": word, "1Table": table})
}

func TestDocPptNative(t *testing.T) {
	fixture := func(name string) func(tb testing.TB) []byte {
		return func(tb testing.TB) []byte {
			b, err := os.ReadFile(filepath.Join("..", "testdata", "legacy", name))
			if err != nil {
				tb.Fatal(err)
			}
			return b
		}
	}
	cut := func(name string, n int) func(tb testing.TB) []byte {
		return func(tb testing.TB) []byte { return fixture(name)(tb)[:n] }
	}
	cases := []struct {
		name string
		ext  string
		data func(tb testing.TB) []byte
	}{
		{"word", ".doc", fixture("word.doc")},
		{"slides", ".ppt", fixture("slides.ppt")},
		{"pieces", ".doc", func(tb testing.TB) []byte { return built(tb, 0) }},
		{"doc_encrypted", ".doc", func(tb testing.TB) []byte { return built(tb, 0x0100) }},
		{"doc_rights", ".doc", func(tb testing.TB) []byte {
			return fixturepkg.CfbFile(tb, map[string][]byte{"\x06DataSpaces": {1}, "WordDocument": {1}})
		}},
		{"doc_word2", ".doc", func(tb testing.TB) []byte {
			w := fib97(0, 0, 0, nil)
			binary.LittleEndian.PutUint16(w[2:], 0x002D) // Word 2: not read natively
			return fixturepkg.CfbFile(tb, map[string][]byte{"WordDocument": w})
		}},
		{"doc_rtf", ".doc", func(tb testing.TB) []byte { return []byte(`{\rtf1\ansi Hello}`) }},
		{"doc_truncated", ".doc", cut("word.doc", 6000)},
		{"ppt_encrypted", ".ppt", func(tb testing.TB) []byte {
			return fixturepkg.CfbFile(tb, map[string][]byte{"EncryptedSummary": {1}, "PowerPoint Document": {1}})
		}},
		{"ppt_no_stream", ".ppt", func(tb testing.TB) []byte {
			return fixturepkg.CfbFile(tb, map[string][]byte{"Other": {1}})
		}},
		{"ppt_truncated", ".ppt", cut("slides.ppt", 9000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f"+c.ext)
			if err := os.WriteFile(path, c.data(t), 0o644); err != nil {
				t.Fatal(err)
			}
			read := readDocNative
			if c.ext == ".ppt" {
				read = ppt.ReadNative
			}
			res, err := read(context.Background(), path, extract.Options{Scratch: t.TempDir()})
			legacyGolden(t, c.name, legacyRender(res, err))
		})
	}
}

// TestDocPptNativeRegistered checks that both readers are offered to the
// legacy path.
func TestDocPptNativeRegistered(t *testing.T) {
	for _, ext := range []string{".doc", ".ppt"} {
		if extract.NativeReaders()[ext] == nil {
			t.Errorf("nativeReaderMap()[%q] is not set", ext)
		}
	}
}

// TestDocPptCancel: a cancelled context stops the readers with its error.
func TestDocPptCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range []string{"word.doc", "slides.ppt"} {
		read := readDocNative
		if strings.HasSuffix(f, ".ppt") {
			read = ppt.ReadNative
		}
		_, err := read(ctx, filepath.Join("..", "testdata", "legacy", f), extract.Options{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", f, err)
		}
	}
}

// TestDocStreamLimit: a stream over the per-stream limit fails the file
// with MsgTooLarge and names the stream in the log.
func TestDocStreamLimit(t *testing.T) {
	_, err := readDocNative(context.Background(), filepath.Join("..", "testdata", "legacy", "word.doc"), extract.Options{Limits: extract.Limits{ZipPartBytes: 1000}})
	var fe *extract.Error
	if !errors.As(err, &fe) || fe.Msg != extract.MsgTooLarge || len(fe.Log) != 1 || !strings.Contains(fe.Log[0], "WordDocument") {
		t.Fatalf("err = %#v, want MsgTooLarge with a log line naming WordDocument", err)
	}
}

// TestDocEQRuby covers the phonetic-guide fields that LibreOffice turns
// into ruby text.
func TestDocEQRuby(t *testing.T) {
	cases := []struct{ code, want string }{
		{` EQ \* jc2 \* "Font:ＭＳ 明朝" \* hps10 \o\ad(\s\up 9(とうきょう),東京)`, "とうきょう東京"},
		{` eq \o\ac(○,秘)`, "○秘"},
		{` EQ \f(1,2)`, ""},
		{` PAGE `, ""},
	}
	for _, c := range cases {
		got := string(utf16.Decode(EQRuby(utf16.Encode([]rune(c.code)))))
		if got != c.want {
			t.Errorf("docEQRuby(%q) = %q, want %q", c.code, got, c.want)
		}
	}
}

// TestDocPptNoPanicOnEveryCut reads truncated and damaged copies of the
// fixtures without the readers' panic recovery.
func TestDocPptNoPanicOnEveryCut(t *testing.T) {
	for _, f := range []string{"word.doc", "slides.ppt"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "legacy", f))
		if err != nil {
			t.Fatal(err)
		}
		for n := 512; n < len(data); n += len(data)/40 + 1 {
			readLegacyBytes(t, f, data[:n])
		}
		// Flipped bytes through the whole file.
		for i := 512; i < len(data); i += len(data)/200 + 1 {
			b := bytes.Clone(data)
			b[i] ^= 0xFF
			readLegacyBytes(t, f, b)
		}
	}
}

// readLegacyBytes runs the reader of name's extension over data without
// the reader's panic recovery, so a panic fails the test.
func readLegacyBytes(tb testing.TB, name string, data []byte) {
	tb.Helper()
	c, err := streams.OpenBytes(data, extract.DefaultLimits)
	if err != nil {
		return
	}
	if strings.HasSuffix(name, ".ppt") {
		ppt.ReadCompound(context.Background(), c, extract.DefaultLimits)
	} else {
		readDocCompound(context.Background(), c, extract.DefaultLimits)
	}
}

// TestDocParaProps covers the paragraph sprms, sprmPHugePapx included: a
// table row's flags that live in the Data stream.
func TestDocParaProps(t *testing.T) {
	le := binary.LittleEndian
	sprm := func(op uint16, arg ...byte) []byte { return append(le.AppendUint16(nil, op), arg...) }
	huge := append(sprm(sprmPFInTable, 1), sprm(sprmPFTtp, 1)...)
	data := map[int64][]byte{0x1234: huge}
	cases := []struct {
		name string
		g    []byte
		want para
	}{
		{"plain", nil, para{}},
		{"cell", sprm(sprmPFInTable, 1), para{inTable: true, itap: 1}},
		{"nested", append(sprm(sprmPFInTable, 1), sprm(sprmPItap, 2, 0, 0, 0)...), para{inTable: true, itap: 2}},
		{"not in table", sprm(sprmPItap, 2, 0, 0, 0), para{}},
		{"page break before", sprm(sprmPFPageBreakBefore, 1), para{pageBreakBefore: true}},
		{"huge", sprm(sprmPHugePapx, 0x34, 0x12, 0, 0), para{inTable: true, ttp: true, itap: 1}},
		{"huge missing", sprm(sprmPHugePapx, 0, 0, 0, 1), para{}},
		{"after a variable sprm", append(sprm(0xC60D, 2, 9, 9), sprm(sprmPFInTable, 1)...), para{inTable: true, itap: 1}},
		{"truncated", sprm(sprmPItap, 2), para{}},
	}
	for _, c := range cases {
		got := parsePapx(c.g, func(off int64) []byte { return data[off] })
		if got != c.want {
			t.Errorf("%s: parsePapx = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestODFChartContent reads the text of a LibreOffice chart object: the
// title, the series names through their label cells, the axis titles.
func TestODFChartContent(t *testing.T) {
	const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0">
<office:body><office:chart><chart:chart>
<chart:title><text:p>月別売上</text:p></chart:title>
<chart:plot-area>
<chart:axis chart:dimension="x"><chart:title><text:p>月</text:p></chart:title></chart:axis>
<chart:axis chart:dimension="y"><chart:title><text:p>金額</text:p></chart:title></chart:axis>
<chart:series chart:label-cell-address="local-table.$B$1"/>
<chart:series chart:label-cell-address="local-table.$C$1"/>
<chart:series chart:label-cell-address="local-table.$Z$9"/>
</chart:plot-area>
<table:table table:name="local-table">
<table:table-header-rows><table:table-row><table:table-cell/><table:table-cell><text:p>東京</text:p></table:table-cell><table:table-cell><text:p>月別売上</text:p></table:table-cell></table:table-row></table:table-header-rows>
<table:table-rows><table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="3"><text:p>1</text:p></table:table-cell></table:table-row></table:table-rows>
</table:table>
</chart:chart></office:chart></office:body></office:document-content>`
	got, err := embed.ODFChartContent(strings.NewReader(content), 100)
	if err != nil {
		t.Fatal(err)
	}
	if want := "月別売上 東京 月 金額"; got != want {
		t.Errorf("odfChartContent = %q, want %q", got, want)
	}
	for _, c := range []struct {
		in       string
		row, col int
		ok       bool
	}{{"local-table.$B$1", 0, 1, true}, {"$AA$10", 9, 26, true}, {"local-table.B", 0, 0, false}, {"x.$1", 0, 0, false}} {
		row, col, ok := embed.ODFCellAddress(c.in)
		if row != c.row || col != c.col || ok != c.ok {
			t.Errorf("odfCellAddress(%q) = %d, %d, %v, want %d, %d, %v", c.in, row, col, ok, c.row, c.col, c.ok)
		}
	}
}
