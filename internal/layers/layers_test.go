package layers_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/fumibako/fumibako/internal/"

// allowed lists each package's direct edges; a package may also import
// whatever those reach (the closure). workspace is importable by all.
// Edges beyond STYLE.md's list, with the reason:
//   - crawl → extract: the list of target extensions lives with the readers;
//   - worker → content: a worker writes the place TSVs of its file into its
//     staging folder (issue 3), the coordinator only swaps it in.
//   - watch → indexer: the watcher drives the coordinator's run from
//     file-system events (DESIGN.md "Keeping the index fresh"); web → watch:
//     serve runs the watcher when 自動で更新する is on.
var allowed = map[string][]string{
	"workspace":  {},
	"ingestlist": {},
	"journal":    {},
	"officefile": {},
	"extract":    {"officefile"},
	"content":    {"extract"},
	"bodyindex":  {"content"},
	"search":     {"bodyindex", "content"},
	"crawl":      {"extract"},
	"plan":       {"ingestlist", "journal", "crawl"},
	"worker":     {"extract", "officefile", "content"},
	"indexer":    {"ingestlist", "journal", "crawl", "plan", "worker", "content", "bodyindex", "extract", "officefile"},
	"watch":      {"indexer"},
	"web":        {"search", "indexer", "ingestlist", "watch"},
	"testcorpus": {},
	"testutil":   {},
	"layers":     {},
}

func closure(pkg string, seen map[string]bool) {
	for _, d := range allowed[pkg] {
		if !seen[d] {
			seen[d] = true
			closure(d, seen)
		}
	}
}

func TestImportsGoOneWay(t *testing.T) {
	dirs, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		pkg := d.Name()
		if _, ok := allowed[pkg]; !ok {
			t.Errorf("package internal/%s is not in the layer table", pkg)
			continue
		}
		ok := map[string]bool{"workspace": true, pkg: true}
		closure(pkg, ok)
		for _, imp := range imports(t, filepath.Join("..", pkg)) {
			dep := strings.Split(strings.TrimPrefix(imp, module), "/")[0]
			if pkg == "testcorpus" || ok[dep] {
				continue
			}
			t.Errorf("internal/%s imports internal/%s: not allowed by the layers", pkg, dep)
		}
	}
}

// imports lists the fumibako packages that the non-test files of dir import.
func imports(t *testing.T, dir string) []string {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, module) {
				seen[p] = true
			}
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
