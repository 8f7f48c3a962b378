package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestVocabulary holds every message table, CLI and web alike, to the one
// vocabulary of messages.go (issue 17): no internal words, 更新 only for a
// file's modification, and in what the CLI prints no screen or checkbox.
func TestVocabulary(t *testing.T) {
	internal := regexp.MustCompile(`TSV|\bstore\b|Unknown|Password|ingest_status\.tsv で`)
	// 自動で更新する is the name of the web UI's setting (issue 19): the
	// index follows the files' changes.
	update := regexp.MustCompile(`更新(?:日時|あり|され|が無くても)|自動で更新する`)
	cliOnly := regexp.MustCompile(`画面|チェック`)
	// The indexer's texts for the web UI's screen; the CLI prints its own
	// (checkOnly), so they may speak of the screen.
	screenTexts := map[string]bool{"MsgNoRoots": true, "MsgNoEnabled": true, "msgDeclined": true, "msgConfirmTimedOut": true}
	for _, tc := range []struct {
		path string
		cli  bool // printed by the CLI
	}{
		{"messages.go", true},
		{"../../internal/indexer/messages.go", true},
		{"../../internal/web/messages.go", false},
		{"../../internal/web/indexing/messages.go", false},
		{"share.go", true},
		{"../../internal/share/errors.go", true},
		{"../../internal/web/share.go", false},
		{"../../internal/web/assets/index.js", false},
		{"../../internal/web/assets/index.html", false},
	} {
		texts := map[string]string{}
		if strings.HasSuffix(tc.path, ".go") {
			texts = goConstants(t, tc.path)
		} else {
			data, err := os.ReadFile(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(data), "\n") {
				if !strings.HasPrefix(strings.TrimSpace(line), "//") {
					texts[filepath.Base(tc.path)+":"+strconv.Itoa(i+1)] = line
				}
			}
		}
		for name, text := range texts {
			if strings.HasSuffix(tc.path, ".js") || strings.HasSuffix(tc.path, ".html") {
				// Only Japanese text: identifiers and CSS are not read by users.
				if !regexp.MustCompile(`[\p{Han}\p{Hiragana}\p{Katakana}]`).MatchString(text) {
					continue
				}
			}
			if m := internal.FindString(text); m != "" {
				t.Errorf("%s %s: internal word %q in %q", tc.path, name, m, text)
			}
			if n := strings.Count(text, "更新") - len(update.FindAllString(text, -1)); n > 0 {
				t.Errorf("%s %s: 更新 for a run in %q (use インデックス作成 or 取り込み)", tc.path, name, text)
			}
			if tc.cli && !screenTexts[name] {
				if m := cliOnly.FindString(text); m != "" {
					t.Errorf("%s %s: %q in a text the CLI prints: %q", tc.path, name, m, text)
				}
			}
		}
	}
}

// goConstants returns the string constants of a Go file by name.
func goConstants(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					out[vs.Names[i].Name] = s
				}
			}
		}
	}
	return out
}

// TestGlossary holds every Japanese text of the binary (japaneseTexts) and
// the web's assets to docs/DESIGN.md's glossary: none uses a word the
// glossary's "not" column lists for a concept (issue 32: one concept had
// five names, search terms three).
func TestGlossary(t *testing.T) {
	data, err := os.ReadFile("../../docs/DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "### Glossary")
	if !ok {
		t.Fatal("docs/DESIGN.md has no ### Glossary")
	}
	var banned []string
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			if len(banned) > 0 && !strings.HasPrefix(line, "|") {
				break
			}
			continue
		}
		for _, w := range strings.Split(cells[3], "、") {
			if w = strings.TrimSpace(w); w != "" && !strings.HasPrefix(w, "(") && w != "not" && !strings.HasPrefix(w, "---") {
				banned = append(banned, w)
			}
		}
	}
	if len(banned) < 8 {
		t.Fatalf("read %d words from the glossary's not column: %q", len(banned), banned)
	}
	texts := japaneseTexts(t)
	for _, path := range []string{"index.js", "index.html", "results.js", "hits.js", "app.js", "settings.js"} {
		data, err := os.ReadFile("../../internal/web/assets/" + path)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				texts = append(texts, japaneseText{line, "internal/web/assets/" + path, path + ":" + strconv.Itoa(i+1)})
			}
		}
	}
	for _, tx := range texts {
		for _, w := range banned {
			if strings.Contains(tx.text, w) && !glossaryFormats[tx.path+" "+w] {
				t.Errorf("%s: %q uses %s (see the glossary in docs/DESIGN.md)", tx.where, tx.text, w)
			}
		}
	}
}

// glossaryFormats are file formats the seed or reference fixes, where a
// word the glossary avoids is the format's own label.
var glossaryFormats = map[string]bool{
	"internal/ingestlist/write.go クロール対象フォルダ": true, // the ingest list's first line (seed)
	"internal/ingestlist/write.go クロール対象":     true,
	"internal/ingestlist/skips.go クロール対象フォルダ": true, // names that line in a skip reason
	"internal/ingestlist/skips.go クロール対象":     true,
	"internal/ingestlist/write.go TSV":        true, // the seed's TSV数 column
	"internal/ingestlist/errors.go TSV":       true, // names the seed's header line
	"internal/search/export/text.go 検索文字列":    true, // 【検索文字列　…】 (reference/search.md §7)
	"internal/web/assets/hits.js 検索文字列":       true, // the same header, written by the web
}
