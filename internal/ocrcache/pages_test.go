package ocrcache

import (
	"strings"
	"testing"
)

// TestPageRoundTrip: a cache entry gives back the lines written, a
// line break inside a line as U+2028.
func TestPageRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"no text", []string{}, []string{}},
		{"lines", []string{"見積書", "", "株式会社 山田"}, []string{"見積書", "", "株式会社 山田"}},
		{"breaks inside", []string{"a\r\nb", "c\nd\re"}, []string{"a\u2028b", "c\u2028d\u2028e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decode(Encode(tt.lines))
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("Decode(Encode(%q)) = %q, want %q", tt.lines, got, tt.want)
			}
		})
	}
}
