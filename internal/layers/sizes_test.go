package layers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The house rules of STYLE.md on size: a function of the product, the
// tools or the benchmarks stays within maxFuncLines, a file within
// maxFileLines; tests are exempt. Longer ones split where a name explains
// the piece.
const (
	maxFuncLines = 100
	maxFileLines = 500
)

// oversized are today's offenders, owned by work in progress; an entry
// must be removed once its function or file is back under the limit, so
// the list can only shrink. Functions are "path Recv.Name", files "path".
var oversized = map[string]bool{
	"bench/cmd/scale/table.go printTable":        true,
	"internal/extract/doc/lines.go reader.lines": true,
	"internal/extract/odf/walk.go":               true,
}

// sizes returns the functions over maxFuncLines and the files over
// maxFileLines of the non-test Go files under the module's folders, with
// their line counts.
func sizes(t *testing.T) map[string]int {
	over := map[string]int{}
	productFiles(t, func(rel string, src []byte, fset *token.FileSet, f *ast.File) {
		if ast.IsGenerated(f) {
			// A generated table (textfold's variants) is data, not
			// code to split.
			return
		}
		if n := strings.Count(string(src), "\n"); n > maxFileLines {
			over[rel] = n
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
					over[rel+" "+funcName(fd)] = n
				}
			}
		}
	})
	return over
}

// productFiles calls fn with each non-test Go file under the module's
// internal, cmd, tools and bench folders (testdata left out): its path
// from the module root, its bytes and its syntax tree.
func productFiles(t *testing.T, fn func(rel string, src []byte, fset *token.FileSet, f *ast.File)) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, dir := range []string{"internal", "cmd", "tools", "bench"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution|parser.ParseComments)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			fn(filepath.ToSlash(rel), src, fset, f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// funcName is Name, or Recv.Name for a method.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

func TestSizes(t *testing.T) {
	over := sizes(t)
	for name, n := range over {
		if !oversized[name] {
			limit := maxFuncLines
			if !strings.Contains(name, " ") {
				limit = maxFileLines
			}
			t.Errorf("%s has %d lines, over %d: split it by responsibility", name, n, limit)
		}
	}
	for name := range oversized {
		if _, ok := over[name]; !ok {
			t.Errorf("%s is within the limit now (or gone): remove it from oversized", name)
		}
	}
}

// TestSizesSeesOffenders checks the walk on a known shape: it must find
// this package's own functions and count a method's receiver.
func TestSizesSeesOffenders(t *testing.T) {
	src := "package p\ntype T struct{}\nfunc (t *T) M() {\n" + strings.Repeat("\t_ = 1\n", maxFuncLines) + "}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	fd := f.Decls[1].(*ast.FuncDecl)
	if got := funcName(fd); got != "T.M" {
		t.Errorf("funcName = %q, want T.M", got)
	}
	if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n != maxFuncLines+2 {
		t.Errorf("counted %d lines, want %d", n, maxFuncLines+2)
	}
}
