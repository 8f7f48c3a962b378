package search_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/search/export"
)

// TestPageEstimate: Word pages whose numbers are estimates (ページNNN（目安）,
// stored as page_NNN_estimate.tsv) are labelled `N ページ（目安）` in the
// hits, the --json/web hit (pageEstimate) and search_results.txt; recorded
// pages keep `N ページ`.
func TestPageEstimate(t *testing.T) {
	root, ix := buildCorpus(t, []corpusFile{
		{`営業\推定.docx`, []extract.Place{
			pl("ページ001（目安）", "りんごの本文"),
			pl("ページ003（目安）[図形]", "りんごの図"),
			pl("ページ003（目安）[コメント]", "りんごの注"),
		}},
		{`営業\記録.docx`, []extract.Place{pl("ページ002", "りんごの記録")}},
	})
	hits, _, err := runQuery(t, root, ix, []string{"りんご"}, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, hitString(h))
		if want := strings.Contains(h.Place, extract.EstimateSuffix); h.PageEstimate != want {
			t.Errorf("%s %s: PageEstimate = %v", h.Path(), h.Place, h.PageEstimate)
		}
	}
	want := []string{
		`営業\推定.docx|1 ページ（目安）|本文|1|りんごの本文|りんご`,
		`営業\推定.docx|3 ページ（目安）|図形|1|りんごの図|りんご`,
		`営業\推定.docx|3 ページ（目安）|コメント|1|りんごの注|りんご`,
		`営業\記録.docx|2 ページ|本文|1|りんごの記録|りんご`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hits\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b, err := json.Marshal(hits[0])
	if err != nil || !bytes.Contains(b, []byte(`"pageEstimate":true`)) || !bytes.Contains(b, []byte(`"label":"1 ページ（目安）"`)) {
		t.Errorf("JSON %s (%v) lacks the estimate", b, err)
	}
	if b, _ := json.Marshal(hits[3]); bytes.Contains(b, []byte("pageEstimate")) {
		t.Errorf("JSON of a recorded page %s marks an estimate", b)
	}
	var out bytes.Buffer
	if err := export.Write(&out, "りんご", hits); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "推定.docx\t1 ページ（目安）\t本文\t1\t") {
		t.Errorf("search_results.txt lacks the estimate label:\n%s", out.String())
	}
}
