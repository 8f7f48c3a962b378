package officefile_test

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile"
)

// TestIssue36IsPDF: a file is a PDF by its header's version and its
// trailer (or, cut short, an object after the header), not by "%PDF-"
// alone: a note or a CSV row that starts so is text.
func TestIssue36IsPDF(t *testing.T) {
	const trailer = "trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n512\n%%EOF\n"
	tests := []struct {
		name       string
		head, tail string // tail "" = the end of head
		want       bool
	}{
		{"pdf", "%PDF-1.4\n1 0 obj\n<< >>\nendobj\n" + trailer, "", true},
		{"pdf 2.0 with binary comment", "%PDF-2.0\r\n%\xe2\xe3\xcf\xd3\r\n", "...\nstartxref\r\n9\r\n%%EOF\r\n", true},
		{"only %%EOF at the end", "%PDF-1.7\n", "garbage\n%%EOF", true},
		{"cut after its objects", "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n12 0 obj\n<< /Length 99 >>\nstream\n", "\x00\x01\x02", true},
		{"note", "%PDF-ファイルの仕様について\n見積書は PDF で送ります。\n", "", false},
		{"note with a version", "%PDF-1.7 の仕様メモ\n見積書は PDF で送ります。\n", "", false},
		{"csv", "%PDF-1.7,版\n請求書,１２３\n見積書,４５６\n", "", false},
		{"csv of a large file", "%PDF-1.4,書類\n請求書,1\n", "見積書,4\n", false},
		{"no version", "%PDF-\n1 0 obj\n" + trailer, "", false},
		// Issue 33: the header anywhere in the first 1,024 bytes.
		{"after a mail header", "From: a@example.jp\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n" + trailer, "", true},
		{"after 1,019 bytes", strings.Repeat("x", 1019) + "%PDF-1.4\n" + trailer, "", true},
		{"after 1,020 bytes", strings.Repeat("x", 1020) + "%PDF-1.4\n" + trailer, "", false},
		{"a note that names the header", "仕様メモ: %PDF-1.7 で始まるファイル\n見積書\n", "", false},
		{"a note quoting an object header: taken for a cut PDF", "%PDF-1.4 の中身\n1 0 obj と書いてある行が目印です。\n", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tail := tt.tail
			if tail == "" {
				tail = tt.head[max(len(tt.head)-officefile.PDFTailBytes, 0):]
			}
			if got := officefile.IsPDF([]byte(tt.head), []byte(tail)); got != tt.want {
				t.Errorf("IsPDF(%q, %q) = %v, want %v", tt.head, strings.ToValidUTF8(tail, "?"), got, tt.want)
			}
		})
	}
}
