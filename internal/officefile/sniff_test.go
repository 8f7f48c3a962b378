package officefile_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile"
)

func TestSniff(t *testing.T) {
	cfb := "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"
	tests := []struct {
		name string
		in   string
		want officefile.Format
	}{
		{"empty", "", officefile.FormatText},
		{"zip", "PK\x03\x04\x14\x00rest", officefile.FormatZIP},
		{"zip signature only", "PK\x03\x04", officefile.FormatZIP},
		{"empty zip is not a package", "PK\x05\x06" + strings.Repeat("\x00", 18), officefile.FormatUnknown},
		{"cfb", cfb + "\x00\x00", officefile.FormatCFB},
		{"cut cfb signature", cfb[:7], officefile.FormatText},
		{"html", "<html><body>表</body></html>", officefile.FormatText},
		{"rtf", `{\rtf1\ansi hello}`, officefile.FormatText},
		{"utf-16 with bom", "\xFF\xFEa\x00", officefile.FormatUnknown},
		{"nul at 4095", strings.Repeat("a", 4095) + "\x00", officefile.FormatUnknown},
		{"nul at 4096 is not looked at", strings.Repeat("a", 4096) + "\x00", officefile.FormatText},
		{"ciphertext", "\x8a\x00\x13\xff", officefile.FormatUnknown},
		{"pdf", "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", officefile.FormatPDF},
		{"pdf with binary", "%PDF-1.4\n\x00\x01stream", officefile.FormatPDF},
		{"pdf after junk", strings.Repeat("x", 1019) + "%PDF-1.4", officefile.FormatPDF},
		{"pdf header past 1 KB", strings.Repeat("x", 1020) + "%PDF-1.4", officefile.FormatText},
		{"cut pdf signature", "%PDF", officefile.FormatText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := officefile.Sniff(strings.NewReader(tt.in), int64(len(tt.in)))
			if err != nil {
				t.Fatalf("Sniff(%q) error %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Sniff(%.20q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestSniffShortRead(t *testing.T) {
	// A size larger than the data is a read failure, never a guess.
	if _, err := officefile.Sniff(bytes.NewReader([]byte("abc")), 10); err == nil {
		t.Errorf("Sniff with size past the end = nil error, want an error")
	}
	if _, err := officefile.Sniff(bytes.NewReader(nil), -1); err == nil {
		t.Errorf("Sniff with negative size = nil error, want an error")
	}
}
