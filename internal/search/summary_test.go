package search_test

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
)

// summaryQueries cover words in one folder, in many, in none, and queries
// without keys (a regex with no literal, exclusions).
var summaryQueries = []struct {
	words []string
	opts  search.Options
}{
	{[]string{"りんご"}, search.Options{}},
	{[]string{"ＡＰＰＬＥ"}, search.Options{}},
	{[]string{"請求先"}, search.Options{}},
	{[]string{"どこにもない"}, search.Options{}},
	{[]string{"り"}, search.Options{}},
	{[]string{"りんご", "-箱"}, search.Options{}},
	{[]string{"[0-9]+"}, search.Options{Regex: true}},
	{[]string{"固有[0-9]"}, search.Options{Regex: true}},
	{[]string{"固有07"}, search.Options{}},
	{[]string{"固有"}, search.Options{Folder: `営業\深い\03`}},
}

// summaryCorpusFiles is the known corpus plus folders enough for the
// summary to skip most of them.
func summaryCorpusFiles() []corpusFile {
	files := slices.Clone(knownCorpus)
	for i := 0; i < 12; i++ {
		files = append(files, corpusFile{fmt.Sprintf(`営業\深い\%02d\記録%d.txt`, i, i),
			[]extract.Place{pl("本文", fmt.Sprintf("固有%02d の記録", i), "共通")}})
	}
	return files
}

func hitStrings(t *testing.T, root string, ix []search.Index, words []string, opts search.Options) ([]string, search.Stats) {
	t.Helper()
	hits, st, err := runQuery(t, root, ix, words, opts)
	if err != nil {
		t.Fatalf("%q: %v", words, err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, hitString(h))
	}
	return out, st
}

// TestSummaryGivesSameHits: a search with the summaries finds exactly what
// one without finds, and skips folders unopened.
func TestSummaryGivesSameHits(t *testing.T) {
	root, ix := buildCorpus(t, summaryCorpusFiles())
	with := map[int][]string{}
	for i, q := range summaryQueries {
		hits, st := hitStrings(t, root, ix, q.words, q.opts)
		with[i] = hits
		if q.words[0] == "固有07" && (st.FoldersSkipped < 10 || st.Folders != 1) {
			t.Errorf("固有07: opened %d folders, summary skipped %d; want 1 opened, most skipped", st.Folders, st.FoldersSkipped)
		}
		if q.words[0] == "どこにもない" && st.Folders != 0 {
			t.Errorf("an absent word opened %d folders", st.Folders)
		}
	}
	for _, x := range ix {
		if err := summary.Remove(root, x.Name); err != nil {
			t.Fatal(err)
		}
	}
	for i, q := range summaryQueries {
		hits, st := hitStrings(t, root, ix, q.words, q.opts)
		if st.FoldersSkipped != 0 {
			t.Errorf("%q without summaries: %d folders skipped", q.words, st.FoldersSkipped)
		}
		if !slices.Equal(hits, with[i]) {
			t.Errorf("%q: with the summary\n%q\nwithout\n%q", q.words, with[i], hits)
		}
		if len(hits) == 0 && q.words[0] != "どこにもない" {
			t.Errorf("%q found nothing", q.words)
		}
	}
}

// TestStaleSummary: what was published, added or removed after the summary
// was written is found (or not) as without a summary.
func TestStaleSummary(t *testing.T) {
	root, ix := buildCorpus(t, summaryCorpusFiles())
	// A new file in a summarized folder, a new folder, a removed file.
	add := func(path string, places ...extract.Place) {
		if _, err := content.WriteFolder(content.Dir(root, path), places); err != nil {
			t.Fatal(err)
		}
		if err := bodyindex.Publish(content.Dir(root, content.FolderOf(path)), nil); err != nil {
			t.Fatal(err)
		}
	}
	add(`営業\深い\05\追加.txt`, pl("本文", "あとから足した固有語"))
	add(`営業\深い\05\新しい\更に.txt`, pl("本文", "あとから足した固有語 その2"))
	if err := bodyindex.Publish(content.Dir(root, `営業\深い\07`), []string{"記録7.txt"}); err != nil {
		t.Fatal(err)
	}
	got, _ := hitStrings(t, root, ix, []string{"あとから足した"}, search.Options{})
	want := []string{
		`営業\深い\05\追加.txt|1 行目|本文|1|あとから足した固有語|あとから足した`,
		`営業\深い\05\新しい\更に.txt|1 行目|本文|1|あとから足した固有語 その2|あとから足した`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("after publishing past the summary:\n%q\nwant\n%q", got, want)
	}
	if got, _ := hitStrings(t, root, ix, []string{"固有07"}, search.Options{}); len(got) != 0 {
		t.Errorf("a removed file is still found: %q", got)
	}
	// A damaged summary is ignored: the same hits.
	if err := os.WriteFile(summary.Path(root, "営業"), []byte("FUMIBAKS garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := hitStrings(t, root, ix, []string{"あとから足した"}, search.Options{}); !slices.Equal(again, want) {
		t.Errorf("with a damaged summary: %q", again)
	}
}

// TestBlockFileGivesSameHits: blocks read with plain reads give the hits
// that blocks read through the mapping give.
func TestBlockFileGivesSameHits(t *testing.T) {
	root, ix := buildCorpus(t, summaryCorpusFiles())
	for _, q := range append(summaryQueries, struct {
		words []string
		opts  search.Options
	}{[]string{"りんご"}, search.Options{Case: true, Kana: true}}) {
		mapped, _ := hitStrings(t, root, ix, q.words, q.opts)
		restore := search.SetBlockFileMin(1)
		read, _ := hitStrings(t, root, ix, q.words, q.opts)
		restore()
		if !slices.Equal(mapped, read) {
			t.Errorf("%q: mapped\n%q\nread\n%q", q.words, mapped, read)
		}
	}
}
