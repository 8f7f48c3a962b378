package web_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/web"
)

// sampleIndex publishes the reference's export example (search.md §8).
func sampleIndex(e *env) {
	e.publish("2024/見積.xlsx",
		extract.Place{Name: "明細", Lines: []string{"", "\t\t品名\t数量", "\t\tりんご\t10", `"改行""あり` + "\u2028" + `"` + "\tりんご箱"}},
		extract.Place{Name: "明細[図形]", Lines: []string{"F2\t納期は別途相談"}})
	e.publish("報告.docx", extract.Place{Name: "ページ003", Lines: []string{"見出し", "りんごの出荷が増えた"}})
	memo := make([]string, 12)
	for i := range memo {
		memo[i] = fmt.Sprintf("%d 行目", i+1)
	}
	memo[11] = "りんご 10 箱"
	e.publish("メモ.txt", extract.Place{Name: "本文", Lines: memo})
}

type streamLine struct {
	Type       string
	Index      string
	Path       string
	Label      string
	PlaceLabel string
	Kind       string
	Row        int
	Cell       string
	Text       string
	Matches    [][2]int
	FullPath   string
	Hits       int
	Files      int
	Message    string
	Word, Pos  int
}

func (e *env) search(query string) []streamLine {
	e.t.Helper()
	resp := e.do(http.MethodGet, "/api/search?"+query, "", nil)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-ndjson") {
		e.t.Fatalf("Content-Type = %q", ct)
	}
	var out []streamLine
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var l streamLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			e.t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

func TestSearchStream(t *testing.T) {
	e := newEnv(t, "")
	sampleIndex(e)
	reDone := regexp.MustCompile(`^該当 (\d+) 件（(\d+) ファイル） ・ [0-9.]+ 秒$`)
	tests := []struct {
		name  string
		query url.Values
		hits  []string // path|label|kind|row
		done  string   // message pattern for 0 hits or an error
	}{
		{"literal", url.Values{"q": {"りんご"}}, []string{
			`メモ.txt|12 行目|本文|12`,
			`報告.docx|3 ページ|本文|2`,
			`2024\見積.xlsx|[シート]明細!C3|セル|3`,
			`2024\見積.xlsx|[シート]明細!B4|セル|4`,
		}, ""},
		{"kinds", url.Values{"q": {"りんご"}, "kinds": {"excel,text"}}, []string{
			`メモ.txt|12 行目|本文|12`, `2024\見積.xlsx|[シート]明細!C3|セル|3`, `2024\見積.xlsx|[シート]明細!B4|セル|4`}, ""},
		{"file names", url.Values{"q": {"りんご"}, "names": {"*.docx;見積"}}, []string{
			`報告.docx|3 ページ|本文|2`, `2024\見積.xlsx|[シート]明細!C3|セル|3`, `2024\見積.xlsx|[シート]明細!B4|セル|4`}, ""},
		{"folder", url.Values{"q": {"りんご"}, "folder": {`営業\2024`}}, []string{
			`2024\見積.xlsx|[シート]明細!C3|セル|3`, `2024\見積.xlsx|[シート]明細!B4|セル|4`}, ""},
		{"shape", url.Values{"q": {"納期"}}, []string{`2024\見積.xlsx|[シート]明細!F2|図形|2`}, ""},
		{"shapes off", url.Values{"q": {"納期"}, "shapes": {"0"}}, nil, "見つかりませんでした。"},
		{"two words", url.Values{"q": {"りんご　10"}}, []string{`メモ.txt|12 行目|本文|12`, `2024\見積.xlsx|[シート]明細!C3 ほか 1|セル|3`}, ""},
		{"exclusion", url.Values{"q": {"りんご -箱"}}, []string{`報告.docx|3 ページ|本文|2`, `2024\見積.xlsx|[シート]明細!C3|セル|3`}, ""},
		{"width and case", url.Values{"q": {"ﾘﾝｺﾞ"}}, nil, "見つかりませんでした。"},
		{"regex", url.Values{"q": {"^りんご"}, "regex": {"1"}}, []string{`メモ.txt|12 行目|本文|12`, `報告.docx|3 ページ|本文|2`}, ""},
		{"bad regex", url.Values{"q": {"(りんご"}, "regex": {"1"}}, nil, "正規表現として不正です"},
		{"empty", url.Values{"q": {"  "}}, nil, "検索するワードを入力してください。"},
		{"unknown index", url.Values{"q": {"りんご"}, "indexes": {"経理"}}, nil, "インデックス「経理」はありません。"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := e.search(tt.query.Encode())
			if len(lines) == 0 {
				t.Fatal("empty stream")
			}
			last := lines[len(lines)-1]
			var got []string
			for _, l := range lines[:len(lines)-1] {
				if l.Type != "hit" {
					t.Fatalf("line %+v before the end", l)
				}
				got = append(got, fmt.Sprintf("%s|%s|%s|%d", l.Path, l.Label, l.Kind, l.Row))
			}
			if strings.Join(got, "\n") != strings.Join(tt.hits, "\n") {
				t.Errorf("hits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.hits, "\n"))
			}
			switch {
			case tt.done != "":
				if !strings.HasPrefix(last.Message, tt.done) {
					t.Errorf("last line = %+v, want message %q", last, tt.done)
				}
			default:
				m := reDone.FindStringSubmatch(last.Message)
				if last.Type != "done" || m == nil || m[1] != fmt.Sprint(len(tt.hits)) || last.Hits != len(tt.hits) {
					t.Errorf("done line = %+v", last)
				}
			}
		})
	}
}

// TestSearchHitFields: a hit carries what the page needs to show, copy
// and preview it.
func TestSearchHitFields(t *testing.T) {
	e := newEnv(t, "")
	sampleIndex(e)
	lines := e.search("q=" + url.QueryEscape("りんご") + "&kinds=excel")
	h := lines[0]
	if h.Index != "営業" || h.PlaceLabel != "[シート]明細" || h.Cell != "C3" || h.Text != "\t\tりんご\t10" {
		t.Errorf("hit = %+v", h)
	}
	if len(h.Matches) != 1 || h.Text[h.Matches[0][0]:h.Matches[0][1]] != "りんご" {
		t.Errorf("matches = %v", h.Matches)
	}
	// The file's full path, from the index's source folder (issue 31).
	if want := filepath.Join(e.root, "2024", "見積.xlsx"); h.FullPath != want {
		t.Errorf("fullPath = %q, want %q", h.FullPath, want)
	}
}

func TestExport(t *testing.T) {
	e := newEnv(t, "")
	sampleIndex(e)
	export := func(body map[string]any) (*http.Response, string) {
		data, _ := json.Marshal(body)
		resp := e.do(http.MethodPost, "/api/export", string(data), nil)
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	query := url.Values{"q": {"りんご"}}.Encode()
	tests := []struct {
		name, format, filter, file, status, want string
	}{
		{"txt", "txt", "", "search_results.txt", "search_results.txt に出力しました（4 件）",
			"\ufeff【検索文字列\u3000りんご】 4 件\r\n" +
				"ファイル名\t場所\t種別\t行\tA\tB\tC\tD\r\n" +
				"営業\\メモ.txt\t\t本文\t12\tりんご 10 箱\r\n" +
				"営業\\報告.docx\t3 ページ\t本文\t2\tりんごの出荷が増えた\r\n" +
				"営業\\2024\\見積.xlsx\t[シート]明細\tセル\t3\t\t\tりんご\t10\r\n" +
				"営業\\2024\\見積.xlsx\t[シート]明細\tセル\t4\t\"改行\"\"あり\n\"\tりんご箱\r\n" +
				"\r\n"},
		{"txt filtered", "txt", "見積", "search_results.txt", "絞り込み後の 2 件を search_results.txt に出力しました",
			"\ufeff【検索文字列\u3000りんご】 2 件\r\n" +
				"ファイル名\t場所\t種別\t行\tA\tB\tC\tD\r\n" +
				"営業\\2024\\見積.xlsx\t[シート]明細\tセル\t3\t\t\tりんご\t10\r\n" +
				"営業\\2024\\見積.xlsx\t[シート]明細\tセル\t4\t\"改行\"\"あり\n\"\tりんご箱\r\n" +
				"\r\n"},
		{"csv", "csv", "", "search_results.csv", "search_results.csv に出力しました（4 件）",
			"\ufeffファイル名,場所,種別,行,セル,更新日時,サイズ,状態,A,B,C,D\r\n" +
				"営業\\メモ.txt,,本文,12,,,,削除されています,りんご 10 箱\r\n" + // the sample's files are not on disk
				"営業\\報告.docx,3 ページ,本文,2,,,,削除されています,りんごの出荷が増えた\r\n" +
				"営業\\2024\\見積.xlsx,[シート]明細,セル,3,C3,,,削除されています,,,りんご,10\r\n" +
				"営業\\2024\\見積.xlsx,[シート]明細,セル,4,B4,,,削除されています,\"改行\"\"あり\r\n\",りんご箱\r\n"}, // encoding/csv writes CRLF inside a quoted cell too
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, got := export(map[string]any{"query": query, "format": tt.format, "filter": tt.filter})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("export = %d %s", resp.StatusCode, got)
			}
			if got != tt.want {
				t.Errorf("export:\n%q\nwant:\n%q", got, tt.want)
			}
			if cd := resp.Header.Get("Content-Disposition"); cd != "attachment; filename="+tt.file {
				t.Errorf("Content-Disposition = %q", cd)
			}
			if st, _ := url.QueryUnescape(resp.Header.Get("X-Fumibako-Status")); st != tt.status {
				t.Errorf("status = %q, want %q", st, tt.status)
			}
		})
	}
	resp, body := export(map[string]any{"query": "", "format": "txt"})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "先に検索してください。") {
		t.Errorf("export before a search = %d %s", resp.StatusCode, body)
	}
}

func TestPreview(t *testing.T) {
	e := newEnv(t, "")
	sampleIndex(e)
	wide := make([]string, 300)
	for i := range wide {
		wide[i] = fmt.Sprintf("c%d", i)
	}
	wide[250] = "当たり"
	e.publish("wide.xlsx", extract.Place{Name: "横長", Lines: []string{"a", strings.Join(wide, "\t"), "b"}})
	long := strings.Repeat("長", 1500)
	e.publish("long.txt", extract.Place{Name: "本文", Lines: []string{long}})
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = fmt.Sprintf("段落 %d", i+1)
	}
	e.publish("長文.docx", extract.Place{Name: "ページ001", Lines: lines})

	tests := []struct {
		name  string
		query url.Values
		check func(t *testing.T, v web.PreviewView)
	}{
		{"excel grid", url.Values{"path": {`営業\2024\見積.xlsx`}, "place": {"明細"}, "row": {"3"}}, func(t *testing.T, v web.PreviewView) {
			if !v.Grid || v.Lines != 4 || len(v.Rows) != 4 || v.TotalCols != 4 || v.ColNote != "" {
				t.Fatalf("view = %+v", v)
			}
			if r := v.Rows[2]; r.N != 3 || strings.Join(r.Cells, "|") != "||りんご|10" {
				t.Errorf("row 3 = %+v", r)
			}
			if r := v.Rows[3]; strings.Join(r.Cells, "|") != "改行\"あり\n|りんご箱" {
				t.Errorf("row 4 = %q", r.Cells)
			}
		}},
		{"shape lines are not a grid", url.Values{"path": {`営業\2024\見積.xlsx`}, "place": {"明細[図形]"}, "row": {"1"}}, func(t *testing.T, v web.PreviewView) {
			if v.Grid || len(v.Rows) != 1 || v.Rows[0].Cells[0] != "F2\t納期は別途相談" {
				t.Errorf("view = %+v", v)
			}
		}},
		{"window", url.Values{"path": {`営業\長文.docx`}, "place": {"ページ001"}, "row": {"100"}, "before": {"3"}, "after": {"2"}}, func(t *testing.T, v web.PreviewView) {
			var ns []int
			for _, r := range v.Rows {
				ns = append(ns, r.N)
			}
			if v.Grid || fmt.Sprint(ns) != "[97 98 99 100 101 102]" || v.Rows[3].Cells[0] != "段落 100" {
				t.Errorf("rows = %v %+v", ns, v.Rows)
			}
		}},
		{"at most 101 rows", url.Values{"path": {`営業\長文.docx`}, "place": {"ページ001"}, "row": {"100"}, "before": {"500"}, "after": {"500"}}, func(t *testing.T, v web.PreviewView) {
			if len(v.Rows) != 101 || v.Rows[0].N != 50 || v.Rows[100].N != 150 {
				t.Errorf("%d rows from %d", len(v.Rows), v.Rows[0].N)
			}
		}},
		{"200 columns around the hit", url.Values{"path": {`営業\wide.xlsx`}, "place": {"横長"}, "row": {"2"}, "col": {"250"}}, func(t *testing.T, v web.PreviewView) {
			if v.FirstCol != 100 || len(v.Rows[1].Cells) != 200 || v.Rows[1].Cells[150] != "当たり" || v.TotalCols != 300 {
				t.Errorf("first col %d, %d cells, total %d", v.FirstCol, len(v.Rows[1].Cells), v.TotalCols)
			}
			if v.ColNote != "表示は CW〜KN の 200 列（全 300 列）" {
				t.Errorf("note = %q", v.ColNote)
			}
			if len(v.Rows[0].Cells) != 0 {
				t.Errorf("row 1 cells = %q", v.Rows[0].Cells)
			}
		}},
		{"long cell cut", url.Values{"path": {`営業\long.txt`}, "place": {"本文"}, "row": {"1"}}, func(t *testing.T, v web.PreviewView) {
			if c := v.Rows[0].Cells[0]; c != strings.Repeat("長", 1000)+"…" {
				t.Errorf("cell of %d runes", len([]rune(c)))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v web.PreviewView
			e.getJSON("/api/preview?"+tt.query.Encode(), &v)
			tt.check(t, v)
		})
	}
	for _, q := range []url.Values{
		{"path": {`営業\ない.xlsx`}, "place": {"明細"}, "row": {"1"}},
		{"path": {`営業\2024\見積.xlsx`}, "place": {"ない"}, "row": {"1"}},
	} {
		if resp := e.do(http.MethodGet, "/api/preview?"+q.Encode(), "", nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("preview %v = %d, want 404", q, resp.StatusCode)
		}
	}
}

func TestIndexes(t *testing.T) {
	e := newEnv(t, "")
	sampleIndex(e)
	var got struct{ Indexes []string }
	e.getJSON("/api/indexes", &got)
	if strings.Join(got.Indexes, ",") != "営業" {
		t.Errorf("indexes = %v", got.Indexes)
	}
}

// TestIssue31SearchDates: since and until filter on the files' indexed
// times with the CLI's rule (search.ParseDateRange); a file whose time is
// unknown (the sample's) is left out by any bound; a bad day is refused.
func TestIssue31SearchDates(t *testing.T) {
	e := newEnv(t, "")
	sampleIndex(e)
	for _, tt := range []struct {
		query string
		hits  int
	}{
		{"q=りんご&since=", 4},
		{"q=りんご&since=2000-01-01", 0},
		{"q=りんご&until=2999/12/31", 0},
	} {
		lines := e.search(tt.query)
		if last := lines[len(lines)-1]; last.Type != "done" || last.Hits != tt.hits {
			t.Errorf("%s: last line %+v, want %d hits", tt.query, last, tt.hits)
		}
	}
	resp := e.do(http.MethodGet, "/api/search?q=x&since=4月1日", "", nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "日付「4月1日」を読めません") {
		t.Errorf("bad since: %d %s", resp.StatusCode, b)
	}
}
