package workspace_test

import (
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

func TestNameRules(t *testing.T) {
	long := strings.Repeat("あ", 255)
	tests := []struct {
		name          string
		index, stored bool
		plain         bool
	}{
		{"営業", true, true, true},
		{"aux.backup", false, true, true},
		{"AUX", false, true, true},
		{"com1.txt", false, true, true},
		{"COM10", true, true, true},
		{"lpt9", false, true, true},
		{"", false, false, false},
		{".", false, false, false},
		{"..", false, false, false},
		{"名前.", false, false, true},
		{"名前 ", false, false, true},
		{"a:b", false, false, true},
		{"a/b", false, false, false},
		{`a\b`, false, false, false},
		{"a\tb", false, false, false},
		{"a*b?c\"d<e>f|g", false, false, true},
		{long, true, true, true},
		{long + "あ", false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := workspace.TestIndexName(tt.name); got != tt.index {
				t.Errorf("TestIndexName(%q) = %v, want %v", tt.name, got, tt.index)
			}
			if got := workspace.TestStoredIndexName(tt.name); got != tt.stored {
				t.Errorf("TestStoredIndexName(%q) = %v, want %v", tt.name, got, tt.stored)
			}
			if got := workspace.TestPlainFolderName(tt.name); got != tt.plain {
				t.Errorf("TestPlainFolderName(%q) = %v, want %v", tt.name, got, tt.plain)
			}
		})
	}
}

func TestToSafeFileName(t *testing.T) {
	if got, want := workspace.ToSafeFileName(`a>b<c\d*e"f:g?h|i/j`), "a＞b＜c￥d＊e”f：g？h｜i／j"; got != want {
		t.Errorf("ToSafeFileName = %q, want %q", got, want)
	}
}

func TestUniqueName(t *testing.T) {
	taken := map[string]bool{"営業": true, "営業(2)": true}
	got := workspace.UniqueName("営業", func(n string) bool { return taken[workspace.FoldKey(n)] || taken[n] })
	if got != "営業(3)" {
		t.Errorf("UniqueName = %q, want 営業(3)", got)
	}
	long := strings.Repeat("x", 255)
	got = workspace.UniqueName(long, func(n string) bool { return n == long })
	if len([]rune(got)) != 255 || !strings.HasSuffix(got, "(2)") {
		t.Errorf("UniqueName(long) = %q (%d runes)", got, len([]rune(got)))
	}
}
