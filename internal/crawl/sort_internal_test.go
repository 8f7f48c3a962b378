package crawl

import (
	"slices"
	"testing"
)

// TestSortFiles checks the order of a crawl's files: case-insensitive
// (ordinal upper-casing, as the seed compares relative paths), full-width
// and Japanese names by their upper-cased bytes, and names that differ in
// case only in the walk's order.
func TestSortFiles(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{nil, nil},
		{[]string{`a\b.txt`}, []string{`a\b.txt`}},
		{[]string{`案件\b.txt`, `案件\A.txt`, `案件\c.txt`}, []string{`案件\A.txt`, `案件\b.txt`, `案件\c.txt`}},
		{[]string{`x\Readme.txt`, `x\README.txt`, `x\readme.txt`}, []string{`x\Readme.txt`, `x\README.txt`, `x\readme.txt`}},
		{[]string{`x\ｂ.txt`, `x\Ｂ.txt`, `x\a.txt`}, []string{`x\a.txt`, `x\ｂ.txt`, `x\Ｂ.txt`}},
		{[]string{`x\y\z.txt`, `x\Y.txt`, `x\見積.xlsx`, `x\_.txt`}, []string{`x\Y.txt`, `x\y\z.txt`, `x\_.txt`, `x\見積.xlsx`}},
	}
	for _, tt := range tests {
		var files []File
		for i, p := range tt.in {
			files = append(files, File{RelPath: p, Size: int64(i)})
		}
		sortFiles(files)
		var got []string
		for _, f := range files {
			got = append(got, f.RelPath)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("sortFiles(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
