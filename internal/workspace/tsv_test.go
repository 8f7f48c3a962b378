package workspace_test

import (
	"reflect"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestTSV: the workspace's small TSVs are the seed's form (BOM, TAB,
// CRLF); a field cannot break its line; a file saved without the BOM or
// with LF endings (by an editor) reads the same, empty lines skipped.
func TestTSV(t *testing.T) {
	rows := [][]string{{"# コメント"}, {`営業\見積.pdf`, "12"}, {"改\n行", "タブ\tあり"}}
	b := workspace.EncodeTSV(rows)
	want := "\ufeff# コメント\r\n営業\\見積.pdf\t12\r\n改 行\tタブ あり\r\n"
	if string(b) != want {
		t.Fatalf("EncodeTSV = %q, want %q", b, want)
	}
	wantRows := [][]string{{"# コメント"}, {`営業\見積.pdf`, "12"}, {"改 行", "タブ あり"}}
	for _, tt := range []struct{ name, data string }{
		{"as written", want},
		{"no BOM, LF, blank lines", "\n# コメント\n\n営業\\見積.pdf\t12\n改 行\tタブ あり"},
	} {
		if got := workspace.DecodeTSV([]byte(tt.data)); !reflect.DeepEqual(got, wantRows) {
			t.Errorf("%s: DecodeTSV = %q, want %q", tt.name, got, wantRows)
		}
	}
	if got := workspace.DecodeTSV(nil); got != nil {
		t.Errorf("DecodeTSV(nil) = %q", got)
	}
}
