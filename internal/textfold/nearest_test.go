package textfold_test

import (
	"testing"

	"github.com/fumibako/fumibako/internal/textfold"
)

// TestNearest holds the suggestion rule to the cases issue 32 names: a
// close name is suggested, a poor one is not.
func TestNearest(t *testing.T) {
	commands := []string{"folder", "index", "watch", "search", "serve", "status", "failures", "open", "export", "import", "help", "version", "schedule"}
	subs := []string{"add", "list", "remove", "rename", "move", "enable", "disable", "source", "restore"}
	flags := []string{"not", "regex", "case", "kind", "index", "folder", "json", "max", "no-names"}
	indexes := []string{"営業部", "総務", "経理部"}
	kinds := []string{"excel", "word", "powerpoint", "pdf", "text", "image"}
	for _, tc := range []struct {
		name       string
		in         string
		candidates []string
		want       string // "" means no suggestion
	}{
		{"subcommand one edit", "ad", subs, "add"},
		{"subcommand missing letter", "lst", subs, "list"},
		{"command swapped letters", "inedx", commands, "index"},
		{"command two edits long", "serach", commands, "search"},
		{"index name prefix", "営業", indexes, "営業部"},
		{"index name full width", "ｅｘｃｅｌ", kinds, "excel"},
		{"kind", "exel", kinds, "excel"},
		{"kind upper case", "WROD", kinds, "word"},
		{"flag far from all", "foo", flags, ""},
		{"flag one edit", "regx", flags, "regex"},
		{"nothing near", "zzzzzz", commands, ""},
		{"empty", "", commands, ""},
		{"itself is no suggestion", "add", []string{"add"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := textfold.Nearest(tc.in, tc.candidates)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("Nearest(%q) = %q, %v, want %q", tc.in, got, ok, tc.want)
			}
		})
	}
}
