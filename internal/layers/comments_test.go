package layers_test

import (
	"go/ast"
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

// TestDocCommentsNameTheirIdentifier fails when a doc comment begins with
// its identifier's name in another case (`// compound is…` above `type
// Compound`): the mark of a name exported or unexported by a move whose
// comment was left behind (52 of them after the extraction tree's split).
func TestDocCommentsNameTheirIdentifier(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var stale []string
	check := func(name string, doc *ast.CommentGroup, pos token.Pos) {
		if doc == nil {
			return
		}
		words := strings.Fields(doc.Text())
		if len(words) == 0 {
			return
		}
		first := strings.TrimRight(words[0], ".,:;")
		if first != name && strings.EqualFold(first, name) {
			p := fset.Position(pos)
			rel, _ := filepath.Rel(root, p.Filename)
			stale = append(stale, filepath.ToSlash(rel)+": "+name+"'s comment says "+first)
		}
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				check(decl.Name.Name, decl.Doc, decl.Pos())
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					doc := decl.Doc
					if len(decl.Specs) > 1 {
						doc = nil
					}
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						if spec.Doc != nil {
							doc = spec.Doc
						}
						check(spec.Name.Name, doc, spec.Pos())
					case *ast.ValueSpec:
						if spec.Doc != nil {
							doc = spec.Doc
						}
						for _, n := range spec.Names {
							check(n.Name, doc, spec.Pos())
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stale {
		t.Error(s)
	}
}
