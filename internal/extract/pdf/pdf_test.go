package pdf

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
)

// The fixtures were written by other programs: lo-* by LibreOffice 7.4
// (soffice --convert-to pdf of a Japanese flat ODT, horizontal and tb-rl
// vertical, with a comment exported as an annotation; one with an open
// password "secret", one with only an owner password restricting printing
// and copying; one of a PNG image alone), fpdf-ipag.pdf by go-pdf/fpdf
// with IPA Gothic as an Identity-H CID font (bench/pdfengines/gen), and
// damaged-cut.pdf is lo-horizontal.pdf cut after 9000 bytes.

func readFixture(t *testing.T, name string) (*extract.Result, error) {
	t.Helper()
	return read(context.Background(), filepath.Join("testdata", name), extract.Options{Scratch: t.TempDir()})
}

func places(r *extract.Result) map[string][]string {
	m := map[string][]string{}
	for _, p := range r.Places {
		m[p.Name] = p.Lines
	}
	return m
}

func TestRead(t *testing.T) {
	loPlaces := map[string][]string{
		"文書情報":         {"見積書タイトルTITLEAA", "件名SUBJECTBB"},
		"ページ001[コメント]": {"確認してくださいCOMMENTCC"},
	}
	tests := []struct {
		file   string
		places map[string][]string // exact lines of these places
		tokens map[string]string   // token → the place that holds it
		order  []string            // place names in order
	}{
		{
			file:   "lo-horizontal.pdf",
			places: loPlaces,
			tokens: map[string]string{"トークン PAGEONEAA 一頁目": "ページ001", "株式会社文箱": "ページ001", "PAGETWOBB": "ページ002", "PAGETHREECC": "ページ003", "１２３４円": "ページ002"},
			order:  []string{"文書情報", "ページ001", "ページ001[コメント]", "ページ002", "ページ003"},
		},
		{
			// Vertical writing (tb-rl): the engine reads down each column,
			// right to left, as a viewer copies it.
			file:   "lo-vertical.pdf",
			places: loPlaces,
			tokens: map[string]string{"東京都千代田区の見積書です。トークン": "ページ001", "二行目：株式会社文箱": "ページ001", "二頁目の本文PAGETWOBB": "ページ002", "三頁目PAGETHREECC": "ページ003"},
			order:  []string{"文書情報", "ページ001", "ページ001[コメント]", "ページ002", "ページ003"},
		},
		{
			file:   "lo-owner-only.pdf",
			places: loPlaces,
			tokens: map[string]string{"PAGEONEAA": "ページ001", "PAGETHREECC": "ページ003"},
		},
		{
			file:   "fpdf-ipag.pdf",
			places: map[string][]string{"文書情報": {"第二の作成元FPDFTITLE", "件名FPDFSUBJECT"}},
			tokens: map[string]string{"一頁目の見積書FPDFONE": "ページ001", "二頁目の請求書FPDFTWO、金額１２３４円": "ページ002", "株式会社文箱": "ページ001"},
			order:  []string{"文書情報", "ページ001", "ページ002"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := readFixture(t, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			got := places(r)
			for name, want := range tt.places {
				if !reflect.DeepEqual(got[name], want) {
					t.Errorf("place %s = %q, want %q", name, got[name], want)
				}
			}
			for tok, place := range tt.tokens {
				var in []string
				for _, p := range r.Places {
					if strings.Contains(strings.Join(p.Lines, "\n"), tok) {
						in = append(in, p.Name)
					}
				}
				if len(in) == 0 || in[0] != place {
					t.Errorf("token %q in places %q, want %s", tok, in, place)
				}
			}
			if tt.order != nil {
				var names []string
				for _, p := range r.Places {
					names = append(names, p.Name)
				}
				if !reflect.DeepEqual(names, tt.order) {
					t.Errorf("places %q, want %q", names, tt.order)
				}
			}
			for _, p := range r.Places {
				for _, l := range p.Lines {
					if l == "" || strings.ContainsAny(l, "\r\n") {
						t.Errorf("place %s: bad line %q", p.Name, l)
					}
				}
			}
			if len(r.Log) != 0 {
				t.Errorf("log %q, want none", r.Log)
			}
		})
	}
}

func TestReadFailures(t *testing.T) {
	tests := []struct {
		file string
		msg  string
	}{
		{"lo-password.pdf", extract.MsgPassword},
		{"damaged-cut.pdf", ""}, // read what survives, or fail as corrupt
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := readFixture(t, tt.file)
			var xerr *extract.Error
			switch {
			case tt.msg != "" && (!errors.As(err, &xerr) || xerr.Msg != tt.msg):
				t.Fatalf("err = %v, want %q", err, tt.msg)
			case tt.msg == "" && err != nil && (!errors.As(err, &xerr) || xerr.Msg != extract.MsgCorrupt):
				t.Fatalf("err = %v, want success or %q", err, extract.MsgCorrupt)
			case tt.msg == "" && err == nil:
				t.Logf("damaged file read: %d places", len(r.Places))
			}
		})
	}
	// The engine still reads a good file after the failures.
	if _, err := readFixture(t, "lo-horizontal.pdf"); err != nil {
		t.Fatal(err)
	}
}

func TestScan(t *testing.T) {
	r, err := readFixture(t, "lo-scan.pdf")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Places {
		if strings.HasPrefix(p.Name, "ページ") {
			t.Errorf("scan has page place %s %q", p.Name, p.Lines)
		}
	}
	want := []string{"    " + fmt.Sprintf(MsgNoText, 1)}
	if !reflect.DeepEqual(r.Log, want) {
		t.Errorf("log %q, want %q", r.Log, want)
	}
}
