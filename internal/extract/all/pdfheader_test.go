package all_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	_ "github.com/fumibako/fumibako/internal/extract/all"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// TestIssue36PDFHeaderText: a text file (.txt, .csv, any text extension)
// that starts with "%PDF-" but is no PDF is read as text (it went to the
// PDF engine and failed "incorrect format"); a real PDF under a text name
// is still read as a PDF, and one cut short fails as a broken file, never
// as its syntax read for text.
func TestIssue36PDFHeaderText(t *testing.T) {
	big := "%PDF-1.7,書類\n" + strings.Repeat("請求書,１２３\n", 800) + "見積書,最終行\n" // past the first 4 KB
	cut := fixture.TextPDF("Cut PDF text")
	cut = cut[:strings.Index(string(cut), "xref")]
	tests := []struct {
		name string
		data string
		want string // a line of the text, "" = a failure with MsgCorrupt
		pdf  bool   // the page text of a PDF
	}{
		{"メモ.txt", "%PDF-ファイルの送り方\n見積書は PDF で送ります。\n", "見積書は PDF で送ります。", false},
		{"版.txt", "%PDF-1.7 の仕様メモ\r\n注文書の控え\r\n", "注文書の控え", false},
		{"一覧.csv", "%PDF-1.4,版\n請求書,１２３\n", "請求書,１２３", false},
		{"一覧.tsv", "%PDF-1.4\t版\n納品書\t４５６\n", "納品書\t４５６", false},
		{"大きい.csv", big, "見積書,最終行", false},
		{"資料.txt", string(fixture.TextPDF("Misnamed PDF text")), "Misnamed PDF text", true},
		{"資料.csv", string(fixture.TextPDF("Misnamed PDF text")), "Misnamed PDF text", true},
		{"途中まで.txt", string(cut), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := fixture.ExtractBytes(t, tt.name, []byte(tt.data), extract.Options{})
			if tt.want == "" {
				var fe *extract.Error
				if !errors.As(err, &fe) || fe.Msg != extract.MsgCorrupt {
					t.Fatalf("Extract = %+v, %v; want %q", res, err, extract.MsgCorrupt)
				}
				return
			}
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			var lines []string
			for _, p := range res.Places {
				if tt.pdf != strings.HasPrefix(p.Name, "ページ") {
					t.Errorf("place %q", p.Name)
				}
				lines = append(lines, p.Lines...)
			}
			if !strings.Contains(strings.Join(lines, "\n"), tt.want) {
				t.Errorf("lines:\n%s\nwant %q", strings.Join(lines, "\n"), tt.want)
			}
			if !tt.pdf && !strings.HasPrefix(lines[0], "%PDF-") {
				t.Errorf("first line %q, want the file's own", lines[0])
			}
		})
	}
}
