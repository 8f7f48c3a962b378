package text_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/testutil"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
)

func utf16Bytes(s string, bigEndian bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

func encode(t testing.TB, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode %q: %v", s, err)
	}
	return b
}

func TestTextFile(t *testing.T) {
	const doc = "見積書です\r\n品名\t数量  \r\n\r\nカタカナ合計　\n"
	want := []string{"見積書です", "品名\t数量", "", "カタカナ合計"}
	tests := []struct {
		name  string
		in    []byte
		want  []string // nil with wantErr "": no place
		err   string
		limit int64
	}{
		{name: "empty", in: nil},
		{name: "blank lines only", in: []byte("  \r\n\t\n\r\n")},
		{name: "ascii", in: []byte("abc"), want: []string{"abc"}},
		{name: "line ends crlf lf cr", in: []byte("a\r\nb\nc\rd"), want: []string{"a", "b", "c", "d"}},
		{name: "cr then lf is one break, lf then cr two", in: []byte("a\n\rb"), want: []string{"a", "", "b"}},
		{name: "middle empty lines kept, trailing dropped", in: []byte("\n\na\n\n\nb\n\n\n"), want: []string{"", "", "a", "", "", "b"}},
		{name: "right trim keeps leading blanks", in: []byte("  a \t\u3000\u2028\n"), want: []string{"  a"}},
		{name: "utf-8", in: []byte(doc), want: want},
		{name: "utf-8 bom", in: append([]byte{0xEF, 0xBB, 0xBF}, doc...), want: want},
		{name: "utf-16le bom", in: append([]byte{0xFF, 0xFE}, utf16Bytes(doc, false)...), want: want},
		{name: "utf-16be bom", in: append([]byte{0xFE, 0xFF}, utf16Bytes(doc, true)...), want: want},
		{name: "utf-16le without bom", in: utf16Bytes("Quote No. 12\r\nTotal 3", false), want: []string{"Quote No. 12", "Total 3"}},
		{name: "utf-16be without bom", in: utf16Bytes("Quote No. 12\r\nTotal 3", true), want: []string{"Quote No. 12", "Total 3"}},
		{name: "japanese utf-16le without nuls", in: utf16Bytes("あいうえおかきくけこ", false), want: []string{"あいうえおかきくけこ"}},
		{name: "japanese utf-16be without nuls", in: utf16Bytes("お見積りのご案内です", true), want: []string{"お見積りのご案内です"}},
		{name: "shift_jis", in: encode(t, japanese.ShiftJIS, doc), want: want},
		{name: "shift_jis nec special characters", in: encode(t, japanese.ShiftJIS, "①　№　㈱"), want: []string{"①　№　㈱"}},
		{name: "shift_jis half-width kana", in: encode(t, japanese.ShiftJIS, "ﾃﾞｰﾀｶﾞ ｱﾘﾏｾﾝ\r\n"), want: []string{"ﾃﾞｰﾀｶﾞ ｱﾘﾏｾﾝ"}},
		{name: "euc-jp", in: encode(t, japanese.EUCJP, doc), want: want},
		{name: "iso-2022-jp", in: encode(t, japanese.ISO2022JP, doc), want: want},
		{name: "iso-2022-jp half-width katakana", in: []byte("\x1b$B$3$s\x1b(B \x1b(I13\x1b(B\n"), want: []string{"こん ｱｳ"}},
		{name: "utf-32le bom", in: []byte{0xFF, 0xFE, 0, 0, 'a', 0, 0, 0}, err: extract.MsgNotText},
		{name: "utf-32be bom", in: []byte{0, 0, 0xFE, 0xFF, 0, 0, 0, 'a'}, err: extract.MsgNotText},
		{name: "nul in utf-8", in: []byte("abcdefgh\x00ijklmnop"), err: extract.MsgNotText},
		{name: "one nul in a few bytes reads as utf-16", in: []byte("abc\x00"), want: []string{"\u6261\u0063"}},
		{name: "euc-jp without kana is ambiguous", in: encode(t, japanese.EUCJP, "見積書\r\n品名"), err: extract.MsgNotText},
		{name: "nul in utf-16 text", in: append([]byte{0xFF, 0xFE}, utf16Bytes("a\x00b", false)...), err: extract.MsgNotText},
		{name: "binary", in: []byte{0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48}, err: extract.MsgNotText},
		{name: "iso-2022-jp with an 8-bit byte", in: []byte("\x1b$B$3$s\x1b(B \xe3\x81\x82"), err: extract.MsgNotText},
		{name: "iso-2022-jp with jis x 0212", in: []byte("\x1b$B$3\x1b$(D01\x1b(B"), err: extract.MsgNotText},
		{name: "gbk", in: []byte{0xD6, 0xD0, 0xCE, 0xC4}, err: extract.MsgNotText},
		{name: "shift_jis with a control character", in: append(encode(t, japanese.ShiftJIS, "日本"), 0x01), err: extract.MsgNotText},
		{name: "at the size limit", in: []byte("0123456789"), limit: 10, want: []string{"0123456789"}},
		{name: "over the size limit", in: []byte("0123456789\n"), limit: 10, err: extract.MsgTooLarge},
		// The router reads a file of at most 64 KiB whole (Options.Data);
		// a larger one is read from its path.
		{name: "64 KiB, read by the router", in: append(bytes.Repeat([]byte("見積書\n"), 6553), "abcde\n"...), want: append(slices.Repeat([]string{"見積書"}, 6553), "abcde")},
		{name: "over 64 KiB, read from the path", in: bytes.Repeat([]byte("見積書\n"), 70<<10/10), want: slices.Repeat([]string{"見積書"}, 70<<10/10)},
		{name: "over 64 KiB, shift_jis", in: encode(t, japanese.ShiftJIS, strings.Repeat("見積書\r\n", 70<<10/8)), want: slices.Repeat([]string{"見積書"}, 70<<10/8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := extract.Options{Limits: extract.Limits{TextBytes: tt.limit}}
			res, err := fixture.ExtractBytes(t, "memo.txt", tt.in, opt)
			if tt.err != "" {
				var e *extract.Error
				if !errors.As(err, &e) || e.Msg != tt.err {
					t.Fatalf("Extract(%q) error = %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Extract(%q) error %v", tt.in, err)
			}
			if tt.want == nil {
				if len(res.Places) != 0 {
					t.Fatalf("Extract(%q) = %v, want no places", tt.in, res.Places)
				}
				return
			}
			wantPlaces := []extract.Place{{Name: "本文", Lines: tt.want}}
			if !reflect.DeepEqual(res.Places, wantPlaces) {
				t.Errorf("Extract(%q) = %q, want %q", tt.in, res.Places, wantPlaces)
			}
		})
	}
}

// TestTextExtensions checks that every text extension, in any case, is read
// by the text reader.
func TestTextExtensions(t *testing.T) {
	if len(extract.TextExtensions) != 75 {
		t.Fatalf("len(TextExtensions) = %d, want 75", len(extract.TextExtensions))
	}
	for _, ext := range extract.TextExtensions {
		for _, name := range []string{"a" + ext, "B" + strings.ToUpper(ext)} {
			res, err := fixture.ExtractBytes(t, name, []byte("x\n"), extract.Options{})
			if err != nil || len(res.Places) != 1 || res.Places[0].Name != "本文" {
				t.Errorf("Extract(%s) = %v, %v, want one 本文 place", name, res, err)
			}
		}
	}
}

func TestTextDefaultLimit(t *testing.T) {
	if extract.DefaultLimits.TextBytes != 10*1000*1000 {
		t.Fatalf("DefaultLimits.TextBytes = %d", extract.DefaultLimits.TextBytes)
	}
	big := bytes.Repeat([]byte("0123456789"), 1000*1000)
	if _, err := fixture.ExtractBytes(t, "big.log", big, extract.Options{}); err != nil {
		t.Errorf("Extract of exactly 10 MB: %v, want success", err)
	}
	_, err := fixture.ExtractBytes(t, "big.log", append(big, 'x'), extract.Options{})
	var e *extract.Error
	if !errors.As(err, &e) || e.Msg != extract.MsgTooLarge {
		t.Errorf("Extract of 10 MB + 1 byte = %v, want %q", err, extract.MsgTooLarge)
	}
}

func TestTextCanceled(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	os.WriteFile(p, []byte("a"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := extract.Extract(ctx, p, "a.txt", extract.Options{Scratch: dir}); !errors.Is(err, context.Canceled) {
		t.Errorf("Extract with a canceled context = %v, want context.Canceled", err)
	}
}

func FuzzText(f *testing.F) {
	testutil.AddSeeds(f, filepath.Join("text", "*"))
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := fixture.ExtractBytes(t, "f.txt", b, extract.Options{})
		if err != nil {
			var e *extract.Error
			if !errors.As(err, &e) || e.Msg != extract.MsgNotText {
				t.Fatalf("Extract error %v, want nil or %q", err, extract.MsgNotText)
			}
			return
		}
		for _, p := range res.Places {
			if p.Name != "本文" || len(p.Lines) == 0 || p.Lines[len(p.Lines)-1] == "" {
				t.Fatalf("place %q with %d lines", p.Name, len(p.Lines))
			}
			for _, l := range p.Lines {
				if strings.ContainsAny(l, "\r\n\x00") || strings.TrimRight(l, " \t\u3000") != l {
					t.Fatalf("line %q not split or trimmed", l)
				}
			}
		}
	})
}
