package search_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// corpusFile is one source file of a test corpus: `<index>\<rel path>`
// and its places in document order.
type corpusFile struct {
	path   string
	places []extract.Place
}

func pl(name string, lines ...string) extract.Place { return extract.Place{Name: name, Lines: lines} }

// knownCorpus is the corpus of the exact-hit-list tests.
var knownCorpus = []corpusFile{
	{`営業\見積.xlsx`, []extract.Place{
		pl("売上", "", "品名\t数量\t単価", "りんご\t10\t100", "ＡＰＰＬＥ\t５\t200", "\"1行目\u20282行目\"\tみかん"),
		pl("売上[図形]", "F2\t納期はりんご次第", "\t住所なし"),
		pl("売上[コメント]", "D5\t\"山田:\u2028りんご確認\""),
		pl("売上[ヘッダー・フッター]", "社外秘 りんご"),
	}},
	{`営業\報告.docx`, []extract.Place{
		pl("ページ001", "りんごの出荷が増えた", "ｶﾞｽ料金の件"),
		pl("ページ002[図形]", "りんご箱の図"),
		pl("ヘッダー・フッター", "社外秘"),
	}},
	{`営業\old_見積.xlsx`, []extract.Place{pl("Sheet1", "りんご\t旧")}},
	{`営業\空.txt`, nil},
	{`営業\2024\発表.pptx`, []extract.Place{
		pl("スライド001", "リンゴ新商品"),
		pl("スライド001[コメント]", "コメントりんご"),
		pl("スライド001_ノート", "ノートのりんご"),
		pl("スライド002（非表示）", "非表示のりんご"),
	}},
	{`営業\2024\メモ.txt`, []extract.Place{pl("本文", "りんご 10 箱", "", "Apple pie", "ａｐｐｌｅ")}},
	{`経理\請求.xlsx`, []extract.Place{pl("請求", "請求先\tりんご商店")}},
}

// buildCorpus writes the files as per-file folders under a content root
// and publishes every folder; it returns the root and the indexes.
func buildCorpus(t testing.TB, files []corpusFile) (string, []search.Index) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "content")
	folders := map[string]bool{}
	indexes := map[string]bool{}
	for _, f := range files {
		if _, err := content.WriteFolder(content.Dir(root, f.path), f.places); err != nil {
			t.Fatal(err)
		}
		folders[content.FolderOf(f.path)] = true
		indexes[strings.SplitN(f.path, `\`, 2)[0]] = true
	}
	for f := range folders {
		if err := bodyindex.Publish(content.Dir(root, f), nil); err != nil {
			t.Fatal(err)
		}
	}
	var ix []search.Index
	for n := range indexes {
		// As an indexing run does at its end: searches use the summary.
		if err := summary.Write(root, n); err != nil {
			t.Fatal(err)
		}
		ix = append(ix, search.Index{Name: n, RootPath: "/src/" + n})
	}
	return root, ix
}

// runQuery parses and runs a query and returns its hits.
func runQuery(t testing.TB, root string, ix []search.Index, words []string, opts search.Options) ([]search.Hit, search.Stats, error) {
	t.Helper()
	q, err := search.Parse(words, opts)
	if err != nil {
		return nil, search.Stats{}, err
	}
	var hits []search.Hit
	st, err := search.Run(context.Background(), root, ix, q, func(h search.Hit) bool {
		hits = append(hits, h)
		return true
	})
	return hits, st, err
}

// hitString renders a hit as `path|label|kind|row|text|match,match`, the
// matches as the text they cover.
func hitString(h search.Hit) string {
	r := strings.NewReplacer("\t", "→", "\u2028", "↵")
	var ms []string
	for _, m := range h.Matches {
		ms = append(ms, r.Replace(h.Text[m[0]:m[1]]))
	}
	text := r.Replace(h.Text)
	return fmt.Sprintf("%s|%s|%s|%d|%s|%s", h.Path(), h.Label, h.Kind, h.Row, text, strings.Join(ms, ","))
}
