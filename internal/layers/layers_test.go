package layers_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/fumibako/fumibako/"

// allowed lists each top-level package's direct edges, as the design's
// house section states them (docs/DESIGN.md, the `layers` block, with the
// reason for each edge beyond the plain flow); a package may also import
// whatever those reach (the closure). workspace is importable by all. A
// package's sub-packages (search/linedfa, extract/xlsx, …) belong to it:
// they share its edges and may import each other, within the rules of
// extractTree, unless a sub-package has a line of its own: then it is a
// floor of its own (bodyindex/format under bodyindex), checked by its own
// line, and the package above may import it only through an edge, never
// the other way. The test reads the design, so the picture and the check
// cannot drift apart.
var allowed, allowedErr = readAllowed(filepath.Join("..", "..", "docs", "DESIGN.md"))

// readAllowed reads the fenced block "```layers" of the design: one line a
// package, "name: edge edge …".
func readAllowed(path string) (map[string][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	_, rest, ok := strings.Cut(text, "\n```layers\n")
	if !ok {
		return nil, fmt.Errorf("%s has no ```layers block", path)
	}
	block, _, ok := strings.Cut(rest, "\n```")
	if !ok {
		return nil, fmt.Errorf("%s: the ```layers block is not closed", path)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(block, "\n") {
		name, edges, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%s: layers line %q is not \"name: edges\"", path, line)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s: %s listed twice in the layers block", path, name)
		}
		out[name] = strings.Fields(edges)
	}
	for name, edges := range out {
		for _, e := range edges {
			if _, ok := out[e]; !ok {
				return nil, fmt.Errorf("%s: %s → %s, and %s has no line of its own", path, name, e, e)
			}
		}
	}
	return out, nil
}

func TestMain(m *testing.M) {
	if allowedErr != nil {
		fmt.Fprintln(os.Stderr, "layers:", allowedErr)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// readerImporters are the only packages outside internal/extract that may
// import a package of the extraction tree other than its root (the
// readers register themselves through internal/extract/all, as image/png
// does with image): the worker, which runs the extractions, the tools,
// bench/legacy, which times the native readers against the LibreOffice
// fallback, and bench/textread, which times the text reader as the worker
// runs it.
// cmd/fumibako runs the worker through package worker and needs none.
var readerImporters = []string{"internal/worker", "tools/", "bench/legacy", "bench/textread"}

// testSupport are the packages only tests import (fixture builders): they
// may import testutil, which no other non-test file does, and no non-test
// file outside them imports them.
var testSupport = []string{"internal/extract/internal/fixture"}

func closure(pkg string, seen map[string]bool) {
	for _, d := range allowed[pkg] {
		if !seen[d] {
			seen[d] = true
			closure(d, seen)
		}
	}
}

// check returns the violations of the layers by the given packages'
// imports (both as module-relative paths: "internal/search/linedfa").
func check(pkgs map[string][]string) []string {
	var bad []string
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, pkg := range names {
		for _, imp := range pkgs[pkg] {
			if why := edge(pkg, imp); why != "" {
				bad = append(bad, pkg+" imports "+imp+": "+why)
			}
		}
	}
	return bad
}

// edge returns why pkg may not import imp, or "" when it may.
func edge(pkg, imp string) string {
	if !strings.HasPrefix(imp, "internal/") {
		return ""
	}
	switch {
	case slices.Contains(testSupport, imp) && !slices.Contains(testSupport, pkg):
		return "only tests import the test-support package " + imp
	case imp == "internal/testutil" && slices.Contains(testSupport, pkg):
		return ""
	case imp == "internal/testutil" && strings.HasPrefix(pkg, "internal/"):
		return "only tests and test-support packages import testutil"
	}
	if why := extractTree(pkg, imp); why != "" {
		return why
	}
	if (pkg == "cmd/fumibako" || topOf(pkg) == "web") && (layerOf(imp) == "bodyindex" || strings.HasPrefix(layerOf(imp), "bodyindex/") || imp == "internal/content") {
		return "front ends read the body index through search and indexer (issue 28)"
	}
	if !strings.HasPrefix(pkg, "internal/") {
		return "" // cmd, tools and bench sit above every layer
	}
	top, dep := layerOf(pkg), layerOf(imp)
	if _, ok := allowed[top]; !ok {
		return "internal/" + top + " is not in the layer table"
	}
	if top == "testcorpus" || top == dep {
		return ""
	}
	ok := map[string]bool{"workspace": true}
	closure(top, ok)
	if !ok[dep] {
		return "not allowed by the layers"
	}
	return ""
}

// extractTree applies the rules of the extraction tree (DESIGN.md "The
// house"): consumers import only its root; the root imports nothing of
// the tree; the shared machinery under extract/internal and the readers
// import the root and the machinery, never a reader; a reader may import
// a floor of its own below its path (extract/pdf/pdfobj), which no other
// reader imports; extract/all imports the readers.
func extractTree(pkg, imp string) string {
	const root = "internal/extract"
	if imp != root && !strings.HasPrefix(imp, root+"/") {
		return ""
	}
	inTree := pkg == root || strings.HasPrefix(pkg, root+"/")
	if !inTree {
		if imp == root {
			return ""
		}
		for _, p := range readerImporters {
			if pkg == p || strings.HasSuffix(p, "/") && strings.HasPrefix(pkg, p) {
				return ""
			}
		}
		return "only the worker and the tools import more of the extraction tree than " + root
	}
	switch {
	case pkg == root:
		return "the root of the extraction tree imports none of its readers or machinery"
	case pkg == root+"/all", imp == root, strings.HasPrefix(imp, root+"/internal/"):
		return ""
	case strings.HasPrefix(imp, pkg+"/") && !strings.HasPrefix(pkg, root+"/internal/"):
		// A reader's own floor (extract/pdf/pdfobj), which has a
		// line of its own.
		return ""
	}
	return "a reader or the shared machinery imports no reader (only " + root + "/all does)"
}

// topOf returns the top-level package of a path under internal/.
func topOf(p string) string {
	return strings.Split(strings.TrimPrefix(p, "internal/"), "/")[0]
}

// layerOf returns the line of the layers block that rules a path under
// internal/: the longest of its leading packages with a line of its own
// ("bodyindex/format" for internal/bodyindex/format/x), else its top-level
// package.
func layerOf(p string) string {
	parts := strings.Split(strings.TrimPrefix(p, "internal/"), "/")
	for n := len(parts); n > 1; n-- {
		if name := strings.Join(parts[:n], "/"); hasLine(name) {
			return name
		}
	}
	return parts[0]
}

// hasLine reports whether the layers block has a line for name (a line
// may list no edges).
func hasLine(name string) bool {
	_, ok := allowed[name]
	return ok
}

func TestImportsGoOneWay(t *testing.T) {
	pkgs := map[string][]string{}
	for _, dir := range []string{"internal", "cmd", "tools", "bench"} {
		err := filepath.WalkDir(filepath.Join("..", "..", dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(filepath.Join("..", ".."), p)
			if imps, ok := imports(t, p); ok {
				pkgs[filepath.ToSlash(rel)] = imps
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"internal/search/linedfa", "internal/extract/xlsx", "internal/extract/internal/ooxml", "cmd/fumibako"} {
		if _, ok := pkgs[want]; !ok {
			t.Errorf("the walk did not reach %s", want)
		}
	}
	for p := range pkgs {
		if _, ok := allowed[layerOf(p)]; strings.HasPrefix(p, "internal/") && !ok {
			t.Errorf("package %s is not in the layer table", p)
		}
	}
	for _, v := range check(pkgs) {
		t.Error(v)
	}
}

// TestCheckCatchesWrongImports feeds deliberately wrong imports to the
// check: each must be reported, and the right ones must not.
func TestCheckCatchesWrongImports(t *testing.T) {
	tests := []struct {
		pkg, imp string
		bad      bool
	}{
		{"internal/web", "internal/extract/xlsx", true},
		{"internal/search", "internal/extract/internal/sheet", true},
		{"cmd/fumibako", "internal/extract/all", true},
		{"internal/indexer", "internal/extract/libreoffice", true},
		{"internal/search/linedfa", "internal/web", true},
		{"internal/extract", "internal/extract/xlsx", true},
		{"internal/extract/xlsx", "internal/extract/xls", true},
		{"internal/extract/pdf", "internal/extract/pdf/pdfobj", false},
		{"internal/extract/xlsx", "internal/extract/pdf/pdfobj", true},
		{"internal/extract/pdf/pdfobj", "internal/extract/pdf", true},
		{"internal/extract/internal/sheet", "internal/extract/docx", true},
		{"internal/extract/internal/ooxml", "internal/content", true},
		{"internal/content", "internal/search", true},
		{"internal/nosuch", "internal/workspace", true},
		{"internal/extract/xlsx", "internal/extract/internal/fixture", true},
		{"internal/extract/xlsx", "internal/testutil", true},
		{"internal/officefile", "internal/testutil", true},
		{"internal/web", "internal/testutil/browser", true},
		{"internal/web", "internal/bodyindex", true},
		{"cmd/fumibako", "internal/content", true},
		{"internal/web", "internal/search", false},
		{"internal/web", "internal/bodyindex/format", true},
		{"internal/bodyindex/format", "internal/bodyindex", true},
		{"internal/bodyindex/format", "internal/search", true},
		{"internal/bodyindex", "internal/bodyindex/format", false},
		{"internal/bodyindex/summary", "internal/bodyindex/format", false},
		{"internal/bodyindex/summary", "internal/bodyindex", true},
		{"internal/bodyindex/format", "internal/bodyindex/summary", true},
		{"internal/bodyindex", "internal/bodyindex/summary", false},
		{"internal/web", "internal/bodyindex/summary", true},
		{"internal/search", "internal/bodyindex/format", false},
		{"internal/share", "internal/bodyindex/format", false},

		{"internal/web", "internal/extract", false},
		{"internal/worker", "internal/extract/all", false},
		{"internal/worker", "internal/extract/libreoffice", false},
		{"tools/xlsxagree", "internal/extract/all", false},
		{"internal/extract/xlsx", "internal/extract/internal/sheet", false},
		{"internal/extract/internal/sheet", "internal/extract/internal/numfmt", false},
		{"internal/extract/all", "internal/extract/doc", false},
		{"internal/extract/docx", "internal/officefile", false},
		{"internal/search", "internal/search/linedfa", false},
		{"internal/search/linedfa", "internal/workspace", false},
		{"cmd/fumibako", "internal/web", false},
		{"internal/extract/internal/fixture", "internal/testutil", false},
		{"bench/cmd/scale", "internal/testutil/browser", false},
		{"internal/testutil/browser", "internal/workspace", false},
		{"internal/testutil/browser", "internal/web", true},
		{"internal/extract/internal/fixture", "internal/extract/internal/ooxml", false},
		{"internal/extract/docx", "internal/officefile/cfb", false},
		{"internal/officefile", "internal/officefile/cfb", false},
		{"internal/officefile/cfb", "internal/extract", true},
	}
	for _, tt := range tests {
		got := check(map[string][]string{tt.pkg: {tt.imp}})
		if (len(got) > 0) != tt.bad {
			t.Errorf("check(%s → %s) = %q, want a violation: %v", tt.pkg, tt.imp, got, tt.bad)
		}
	}
}

// imports lists the fumibako packages (module-relative) that the non-test
// files of dir import, and false when dir holds no Go package.
func imports(t *testing.T, dir string) ([]string, bool) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	found := false
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		found = true
		for _, imp := range af.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, module) {
				seen[strings.TrimPrefix(p, module)] = true
			}
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, found
}
