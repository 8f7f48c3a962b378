package doc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// Word 6/95 documents built byte by byte (word6_build_test.go), read
// natively and, where LibreOffice decodes the same bytes, compared with
// LibreOffice's reading of them converted to .docx.

const w6JapaneseWant = `== ページ001（目安）
日本語の文書です。
丸数字①②と髙橋
表の見出し	値
東京	大阪
改ページの前
== ページ002（目安）
次のページ
English text
== ヘッダー・フッター
ヘッダーの文字
フッターの文字
== 脚注
脚注の本文
`

var w6Japanese = w6Spec{
	lid:     0x0411,
	enc:     japanese.ShiftJIS,
	main:    "日本語の文書です。\r丸数字①②と髙橋\x02\r表の見出し\a値\a\a東京\a大阪\a\a\r改ページの前\f次のページ\rEnglish text\r",
	ftn:     "\x02 脚注の本文",
	header:  "ヘッダーの文字\r",
	footer:  "フッターの文字\r",
	font:    "ＭＳ 明朝",
	charset: 128,
}

var w6Western = w6Spec{
	lid:     0x0409,
	enc:     charmap.Windows1252,
	main:    "Café “quoted” – naïve\x02\rName\aPrice\a\aTea\a€3\a\a\rBefore the break\fAfter the break\r",
	ftn:     "\x02 A footnote",
	header:  "The header\r",
	footer:  "The footer\r",
	font:    "Times New Roman",
	charset: 0,
}

const w6WesternWant = `== ページ001（目安）
Café “quoted” – naïve
Name	Price
Tea	€3
Before the break
== ページ002（目安）
After the break
== ヘッダー・フッター
The header
The footer
== 脚注
A footnote
`

// word6Cases are the built documents, the forms each is built in (8-bit
// or fExtChar 16-bit units; fully or fast saved) and what the native
// reader gives. oracle marks the forms LibreOffice 7.4 decodes the same
// way: it decodes 8-bit text by the run's font character set, which these
// files do not make it take (it falls back to Windows-1252), so the
// Japanese and half-width cases compare in fExtChar form only, where it
// decodes double-byte units by the CJK code page; and it misplaces the
// paragraph ends of fast-saved fExtChar files.
type word6Case struct {
	name    string
	spec    w6Spec
	complex bool
	ext     bool
	oracle  bool
	want    string
}

var word6Cases = []word6Case{
	{"japanese", w6Japanese, false, false, false, w6JapaneseWant},
	{"japanese_complex", w6Japanese, true, false, false, w6JapaneseWant},
	{"japanese_ext", w6Japanese, false, true, true, w6JapaneseWant},
	{"japanese_ext_complex", w6Japanese, true, true, false, w6JapaneseWant},
	{"western", w6Western, false, false, true, w6WesternWant},
	{"western_complex", w6Western, true, false, true, w6WesternWant},
	{"halfwidth", w6Spec{lid: 0x0411, enc: japanese.ShiftJIS, main: "ｶﾀｶﾅとかな\r", font: "ＭＳ ゴシック", charset: 128}, false, false, false, "== ページ001（目安）\nｶﾀｶﾅとかな\n"},
	{"halfwidth_ext", w6Spec{lid: 0x0411, enc: japanese.ShiftJIS, main: "ｶﾀｶﾅとかな\r", font: "ＭＳ ゴシック", charset: 128}, false, true, false, "== ページ001（目安）\nｶﾀｶﾅとかな\n"},
	{"word6", w6Spec{lid: 0x0409, enc: charmap.Windows1252, main: "Word 6.0\r", nFib: 101}, false, false, true, "== ページ001（目安）\nWord 6.0\n"},
}

func (c *word6Case) build(tb testing.TB) []byte {
	s := c.spec
	s.complex, s.extChar = c.complex, c.ext
	return buildWord6(tb, s)
}

func TestWord6Built(t *testing.T) {
	for i := range word6Cases {
		c := &word6Cases[i]
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.doc")
			if err := os.WriteFile(path, c.build(t), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := readDocNative(context.Background(), path, extract.Options{Scratch: t.TempDir()})
			if got := legacyRender(res, err); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestWord6Encrypted: a Word 95 file with fEncrypted fails with the
// password message, not through LibreOffice.
func TestWord6Encrypted(t *testing.T) {
	b := buildWord6(t, w6Western)
	// The FIB is at the start of the WordDocument stream, the first
	// stream sector after the FAT and the directory (fixture.CfbFile).
	i := bytes.Index(b, []byte{0xDC, 0xA5, 104, 0})
	b[i+11] |= 0x01 // fEncrypted: 0x0100 of the flags at 10
	path := filepath.Join(t.TempDir(), "f.doc")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := readDocNative(context.Background(), path, extract.Options{Scratch: t.TempDir()})
	if got := legacyRender(res, err); err == nil || !strings.Contains(got, extract.MsgPassword) {
		t.Errorf("got %q, want the password message", got)
	}
}

// TestWord6LibreOffice compares the native reading of the built documents
// LibreOffice decodes alike (oracle) with LibreOffice's: each converted to
// .docx by soffice and read by the .docx reader, every place and line.
func TestWord6LibreOffice(t *testing.T) {
	soffice := testutil.Require(t, "soffice")
	dir := t.TempDir()
	var files []string
	for i := range word6Cases {
		c := &word6Cases[i]
		if !c.oracle {
			continue
		}
		p := filepath.Join(dir, c.name+".doc")
		if err := os.WriteFile(p, c.build(t), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	convertDocx(t, soffice, dir, files)
	for i := range word6Cases {
		c := &word6Cases[i]
		if !c.oracle {
			continue
		}
		want, err := extract.ReaderFor(".docx")(context.Background(), filepath.Join(dir, "out", c.name+".docx"), extract.Options{Scratch: t.TempDir()})
		if err != nil {
			t.Errorf("%s: LibreOffice's conversion: %v", c.name, err)
			continue
		}
		got, err := readDocNative(context.Background(), filepath.Join(dir, c.name+".doc"), extract.Options{Scratch: t.TempDir()})
		if g, w := legacyRender(got, err), legacyRender(want, nil); g != w {
			t.Errorf("%s: native\n%s\nLibreOffice\n%s", c.name, g, w)
		}
	}
}

// TestWord6Corpus reads the corpus' Word 6 files and compares every body
// line with LibreOffice's text export.
func TestWord6Corpus(t *testing.T) {
	p := filepath.Join(testutil.Corpus(t), "tika", "testWORD6.doc")
	if _, err := os.Stat(p); err != nil {
		testutil.CorpusMissing(t, "%s absent", p)
	}
	soffice := testutil.Require(t, "soffice")
	res, err := readDocNative(context.Background(), p, extract.Options{Scratch: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pl := range res.Places {
		if strings.HasPrefix(pl.Name, extract.PageName(1)[:len("ページ")]) {
			got = append(got, pl.Lines...)
		}
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	cmd := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--headless", "--norestore", "--convert-to", "txt:Text", "--outdir", out, p)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	b, err := os.ReadFile(filepath.Join(out, "testWORD6.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			want = append(want, l)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) == 0 {
		t.Errorf("native %q\nLibreOffice %q", got, want)
	}
}

// convertDocx converts files to dir/out/*.docx with soffice.
func convertDocx(t *testing.T, soffice, dir string, files []string) {
	t.Helper()
	args := append([]string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--headless", "--norestore", "--convert-to", "docx", "--outdir", filepath.Join(dir, "out")}, files...)
	if b, err := exec.Command(soffice, args...).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
}
