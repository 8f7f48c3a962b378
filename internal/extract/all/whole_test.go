package all_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testcorpus"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestWholeMatchesFile: a package the router read whole (Options.Data, a
// file of at most extract.WholeMax bytes) is read exactly as from its
// file: the same places, or the same failure. The files are written by
// the fixture writers, and, when the shared corpus is here, every small
// .docx .xlsx .pptx .odt .ods .odp of it (broken and encrypted ones too).
func TestWholeMatchesFile(t *testing.T) {
	dir := t.TempDir()
	var files []string
	add := func(name string, write func(string) error) {
		p := filepath.Join(dir, name)
		if err := write(p); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	add("見積.docx", func(p string) error {
		return testcorpus.WriteDocx(p, []string{"見積書 株式会社", "納期 2024/04/01"})
	})
	add("売上.xlsx", func(p string) error {
		return testcorpus.WriteXlsx(p, map[string][][]string{"売上": {{"東京", "1200"}, {"大阪", "900"}}})
	})
	add("会議.pptx", func(p string) error { return testcorpus.WritePptx(p, [][]string{{"進捗", "予算"}, {"承認"}}) })
	add("壊れ.docx", func(p string) error { return os.WriteFile(p, []byte("PK\x03\x04 not a zip"), 0o644) })
	if root, err := filepath.EvalSymlinks(testutil.CorpusDir(t)); err == nil {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm", ".odt", ".ods", ".odp":
				if info, err := d.Info(); err == nil && info.Size() <= extract.WholeMax {
					files = append(files, p)
				}
			}
			return nil
		})
	} else {
		t.Log("the shared corpus is not here: only the written files are compared")
	}
	for _, f := range files {
		ext := strings.ToLower(filepath.Ext(f))
		read := extract.ReaderFor(ext)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fromFile, errFile := read(context.Background(), f, extract.Options{Scratch: t.TempDir()})
		fromData, errData := read(context.Background(), f, extract.Options{Scratch: t.TempDir(), Data: data})
		if (errFile == nil) != (errData == nil) || errFile != nil && errFile.Error() != errData.Error() {
			t.Errorf("%s: from the file: %v; from its bytes: %v", f, errFile, errData)
			continue
		}
		if errFile == nil && !reflect.DeepEqual(fromFile.Places, fromData.Places) {
			t.Errorf("%s: places from the file\n%+v\nfrom its bytes\n%+v", f, fromFile.Places, fromData.Places)
		}
	}
	t.Logf("%d packages compared", len(files))
}
