package layers_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPackageSaysWhatItIs fails when a package of the module has no
// package comment (STYLE.md: a package says what it reads or does, and
// from which spec): the extraction tree was once split mechanically and
// 18 of its packages were left without one.
func TestEveryPackageSaysWhatItIs(t *testing.T) {
	root := filepath.Join("..", "..")
	var missing []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") && p != root {
			return filepath.SkipDir
		}
		documented, ok := packageDocumented(t, p)
		if ok && !documented {
			rel, _ := filepath.Rel(root, p)
			missing = append(missing, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range missing {
		t.Errorf("package %s has no package comment (write one in its doc.go)", p)
	}
}

// packageDocumented reports whether the non-test Go files in dir carry a
// package comment; ok is false when dir holds no such file.
func packageDocumented(t *testing.T, dir string) (documented, ok bool) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatalf("parse %s: %v", dir, err)
	}
	for _, p := range pkgs {
		ok = true
		for _, f := range p.Files {
			if f.Doc != nil {
				return true, true
			}
		}
	}
	return false, ok
}
