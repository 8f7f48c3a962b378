package rtf_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	_ "github.com/fumibako/fumibako/internal/extract/rtf"
)

func read(t testing.TB, path string) (*extract.Result, error) {
	t.Helper()
	return extract.Extract(context.Background(), path, filepath.Base(path), extract.Options{Scratch: t.TempDir()})
}

type place struct {
	Name  string
	Lines []string
}

func flat(res *extract.Result) []place {
	var out []place
	for _, p := range res.Places {
		out = append(out, place{p.Name, p.Lines})
	}
	return out
}

// TestLibreOffice reads the RTF LibreOffice wrote from the text fixture
// (../odf/testdata/gen.sh): the same places as the .odt.
func TestLibreOffice(t *testing.T) {
	res, err := read(t, filepath.Join("testdata", "text.rtf"))
	if err != nil {
		t.Fatal(err)
	}
	want := []place{
		{"ページ001", []string{"御見積書\u3000見出し丙", "下記の通りお見積り申し上げます。", "詳細は弊社サイトを ご覧ください。", "品名\t数量\t備考", "りんご己 青森産\t10", "箇条書き庚"}},
		{"ページ001[コメント]", []string{"コメント戊を確認"}},
		{"ページ002", []string{"第2ページ辛 タブの後", "本文の続き"}},
		{"ページ002[図形]", []string{"テキストボックス壬"}},
		{"ページ003", []string{"第3ページ癸 改行の後"}},
		{"ヘッダー・フッター", []string{"社外秘\u3000ヘッダー甲", "株式会社フッター乙"}},
		{"脚注", []string{"脚注丁は税抜きです。"}},
	}
	if got := flat(res); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

const head = `{\rtf1\ansi\ansicpg932\deff0{\fonttbl{\f0\fnil\fcharset128 MS Mincho;}{\f1\fswiss\fcharset0 Arial;}{\f2\fnil\fcharset134 SimSun;}}`

// TestSyntax pins the decoding and the destinations on small documents in
// the forms Word and WordPad write.
func TestSyntax(t *testing.T) {
	for _, tc := range []struct {
		name, rtf string
		want      []place
	}{
		{"shift_jis escapes", head + `\f0 \'93\'fa\'96\'7b\'8c\'ea\par}`, []place{{"ページ001", []string{"日本語"}}}},
		{"trail byte as an escaped backslash", head + `\f0 \'95\\\'8e\'a6\par}`, []place{{"ページ001", []string{"表示"}}}},
		{"raw utf-8 text", `{\rtf1\ansi\ansicpg932 日本\'8c\'ea\par}`, []place{{"ページ001", []string{"日本語"}}}},
		{"raw shift_jis bytes", head + "\\f0 \x93\xfa\x8c\xea\\par}", []place{{"ページ001", []string{"日語"}}}},
		{"ansicpg without a font", `{\rtf1\ansi\ansicpg932 \'82\'a0\par}`, []place{{"ページ001", []string{"あ"}}}},
		{"font code page over ansicpg", head + `\f1 caf\'e9 \f2 \'d6\'d0\par}`, []place{{"ページ001", []string{"café 中"}}}},
		{"unicode with fallback", head + `\uc1\u26085?\u26412?{\uc2\u35486\'8c\'ea}\par}`, []place{{"ページ001", []string{"日本語"}}}},
		{"negative unicode and surrogates", head + `\u-28647?\u-10174?\u-8265?\par}`, []place{{"ページ001", []string{"這𠮷"}}}},
		{"starred destinations skipped", head + `前{\*\generator Riched20;}{\*\unknown 秘密}{\*\bkmkstart b}後\par}`, []place{{"ページ001", []string{"前後"}}}},
		{"field result read, instruction skipped", head + `{\field{\*\fldinst HYPERLINK "http://x"}{\fldrslt リンク}}\par}`, []place{{"ページ001", []string{"リンク"}}}},
		{"pictures and binary skipped", head + `絵{\pict\pngblip\bin4 {}\}画}\par}`, []place{{"ページ001", []string{"絵"}}}},
		{"symbols", head + `a\~b\_c\-d\tab e\line f\emdash\ldblquote g\rdblquote \{\}\par}`, []place{{"ページ001", []string{"a b-cd e f—“g”{}"}}}},
		{"table rows", head + `\trowd\cellx1000\cellx2000\cellx3000\pard\intbl 品名\cell 数量\cell\cell\row\pard\intbl りんご\par 青森\cell 10\cell\cell\row\pard 以上\par}`,
			[]place{{"ページ001", []string{"品名\t数量", "りんご 青森\t10", "以上"}}}},
		{"nested table flattened", head + `\pard\intbl 外\par{\pard\intbl\itap2 内1\nestcell 内2\nestcell{\*\nesttableprops\nestrow}}\cell 右\cell\row}`,
			[]place{{"ページ001", []string{"外 内1 内2\t右"}}}},
		{"pages", head + `一\par\page 二\par\pard\pagebb 三\par}`, []place{{"ページ001", []string{"一"}}, {"ページ002", []string{"二"}}, {"ページ003", []string{"三"}}}},
		{"header footer footnote endnote comment", head +
			`{\header\pard 社外秘\par}{\footerf\pard 頁\par}{\headerl\pard 社外秘\par}本文{\super\chftn}{\footnote\ftnalt\pard\plain 巻末\par}注{\footnote\pard 脚注\par}{\*\atnid A}{\*\atnauthor 山田}\chatn{\*\annotation{\*\atndate 0}\pard 確認\par 要}\par}`,
			[]place{{"ページ001", []string{"本文注"}}, {"ページ001[コメント]", []string{"確認 要"}}, {"ヘッダー・フッター", []string{"社外秘", "頁"}}, {"脚注", []string{"脚注", "巻末"}}}},
		{"shape text", head + `{\shp{\*\shpinst{\sp{\sn shapeType}{\sv 202}}{\shptxt 図の中\par}}{\shprslt 古い版}}本文\par}`,
			[]place{{"ページ001", []string{"本文"}}, {"ページ001[図形]", []string{"図の中"}}}},
		{"unclosed groups", head + `{\b 途中`, []place{{"ページ001", []string{"途中"}}}},
		// Issue 33: cells of a row that never ends, and groups that are
		// no text.
		{"cells without row, then a paragraph", head + `\trowd\cellx1000\cellx2000\pard\intbl 品名\cell 数量\cell\pard 以上\par}`,
			[]place{{"ページ001", []string{"品名\t数量", "以上"}}}},
		{"cells without row at the end", head + `\trowd\cellx1000\cellx2000\pard\intbl 品名\cell 数量\cell}`,
			[]place{{"ページ001", []string{"品名\t数量"}}}},
		{"last cell unterminated", head + `\trowd\cellx1000\cellx2000\pard\intbl 品名\cell 数量}`,
			[]place{{"ページ001", []string{"品名\t数量"}}}},
		{"a row's definition ends the row before", head + `\trowd\cellx1\pard\intbl 甲\cell\trowd\cellx1\pard\intbl 乙\cell\row}`,
			[]place{{"ページ001", []string{"甲", "乙"}}}},
		{"bare list group", head + `前{\list\listtemplateid1{\listlevel\levelnfc0{\leveltext\'02\'00.;}{\levelnumbers\'01;}}{\listname 番号;}}後\par}`,
			[]place{{"ページ001", []string{"前後"}}}},
		{"control bytes dropped", head + `a\'01\'07\'1fb\par}`, []place{{"ページ001", []string{"ab"}}}},
		{"empty", `{\rtf1}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := read(t, fixture.WriteTemp(t, "t.rtf", []byte(tc.rtf)))
			if err != nil {
				t.Fatal(err)
			}
			if got := flat(res); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"text.rtf", []byte("not rtf at all"), extract.MsgCorrupt},
		{"deep.rtf", []byte(`{\rtf1` + strings.Repeat("{", 5000)), extract.MsgCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := read(t, fixture.WriteTemp(t, tc.name, tc.data))
			var e *extract.Error
			if !errors.As(err, &e) || !strings.HasPrefix(e.Msg, tc.msg) {
				t.Fatalf("got %v, %v; want %q", res, err, tc.msg)
			}
		})
	}
}

func FuzzRTF(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "text.rtf"))
	if err != nil {
		f.Fatal(err)
	}
	fixture.NativeFuzzSeeds(f, map[string][]byte{
		"libreoffice": b,
		"sjis":        []byte(head + `\f0 \'93\'fa{\header x}\u26085?\par}`),
		"table":       []byte(head + `\trowd\cellx1\pard\intbl a\cell\row{\*\x}\bin2 ab}`),
		"openrow":     []byte(head + `\trowd\cellx1\cellx2\pard\intbl a\cell b\cell\pard c\par\trowd\pard\intbl d\cell}`),
		"list":        []byte(head + `{\list{\listlevel{\leveltext\'02\'00.;}}}x\'01\par}`),
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := read(t, fixture.WriteTemp(t, "f.rtf", data))
		fixture.CheckNative(t, res, err)
	})
}
