package searchcorpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// TreeVersion is the version of the tree generator: a tree stamped with
// another version (or another TreeSpec) is generated again.
//
// History:
//
//	1  nested Japanese and English folders, .txt .tsv .md .log files.
const TreeVersion = 1

// TreeSpec says what GenerateTree writes: the corpus's Spec, with the
// same defaults (50,000 bytes per file, 50 files per folder: 10 GB in
// 200,000 files under 4,000 folders). The same TreeSpec gives the same
// bytes.
type TreeSpec = Spec

// Tree is a generated folder of text files: a source tree that `fumibako
// index` ingests from nothing (every file a text file, so the build time
// is the indexer's, not a format reader's) and that rg reads as is.
//
// Layout under Dir:
//
//	files/...   the source files, in nested folders (TreeSpec)
//	tree.json   the stamp: TreeVersion, the TreeSpec and the counts
type Tree struct {
	Version   int
	Spec      TreeSpec
	Dir       string `json:"-"`
	Files     int
	Folders   int
	Lines     int64
	TextBytes int64
}

// Root returns the folder of the source files.
func (t *Tree) Root() string { return filepath.Join(t.Dir, "files") }

// OpenTree returns the tree in dir when it was generated completely by
// this TreeVersion from spec, else nil.
func OpenTree(dir string, spec TreeSpec) *Tree {
	spec.defaults()
	data, err := os.ReadFile(filepath.Join(dir, "tree.json"))
	if err != nil {
		return nil
	}
	var t Tree
	if json.Unmarshal(data, &t) != nil || t.Version != TreeVersion || t.Spec != spec {
		return nil
	}
	t.Dir = dir
	return &t
}

// treeFile is one file of the tree's layout.
type treeFile struct {
	index  int    // global file number (seeds its text)
	rel    string // path under Root, / separated
	kind   string // extension
	target int64  // text bytes to aim for
}

// layout returns the folders (/-separated paths under Root, "" first) and
// files of spec; it writes nothing and is cheap, so that ChangeFiles can
// find a file's path and seed again.
func layout(spec TreeSpec) ([]string, []treeFile) {
	r := rand.New(rand.NewPCG(spec.Seed, 0x7ee))
	nFiles := int(max(1, spec.TextBytes/spec.MeanFileBytes))
	nFolders := max(1, (nFiles+spec.FilesPerFolder-1)/spec.FilesPerFolder)
	type node struct {
		path  string
		depth int
		names map[string]bool
	}
	nodes := []*node{{names: map[string]bool{}}}
	g := &gen{r: r}
	top := slices.Clone(topFolders)
	r.Shuffle(len(top), func(i, j int) { top[i], top[j] = top[j], top[i] })
	for len(nodes) < nFolders {
		// Parents: shallow folders more often, so that the tree is wide
		// near the top and five or six levels deep in places.
		var p *node
		for p == nil {
			c := nodes[r.IntN(len(nodes))]
			switch {
			case c.depth == 0 && len(c.names) >= len(topFolders)-4:
			case len(nodes) <= 12:
				p = nodes[0]
			case c.depth < 6 && r.IntN(c.depth+1) == 0:
				p = c
			}
		}
		name := g.folderName(p.depth)
		if p.depth == 0 {
			name = top[len(p.names)]
		}
		for i := 2; p.names[name]; i++ {
			name = fmt.Sprintf("%s (%d)", strings.TrimSuffix(name, fmt.Sprintf(" (%d)", i-1)), i)
		}
		p.names[name] = true
		path := name
		if p.path != "" {
			path = p.path + "/" + name
		}
		nodes = append(nodes, &node{path: path, depth: p.depth + 1, names: map[string]bool{}})
	}
	// Files per folder vary around the mean (a few folders hold many).
	weights := make([]float64, len(nodes))
	sum := 0.0
	for i := range weights {
		weights[i] = r.ExpFloat64()
		sum += weights[i]
	}
	counts := make([]int, len(nodes))
	given := 0
	for i := range counts {
		counts[i] = int(weights[i] / sum * float64(nFiles))
		given += counts[i]
	}
	for i := 0; given < nFiles; i = (i + 1) % len(counts) {
		counts[i]++
		given++
	}
	folders := make([]string, len(nodes))
	var files []treeFile
	for i, n := range nodes {
		folders[i] = n.path
		for k := 0; k < counts[i]; k++ {
			kind := []string{".tsv", ".tsv", ".tsv", ".tsv", ".txt", ".txt", ".txt", ".md", ".md", ".log"}[r.IntN(10)]
			name := g.fileName(kind)
			for j := 2; n.names[name]; j++ {
				name = strings.TrimSuffix(g.fileName(kind), kind) + fmt.Sprintf("_%d", j) + kind
			}
			n.names[name] = true
			rel := name
			if n.path != "" {
				rel = n.path + "/" + name
			}
			target := spec.MeanFileBytes/5 + r.Int64N(spec.MeanFileBytes*8/5+1)
			files = append(files, treeFile{index: len(files), rel: rel, kind: kind, target: target})
		}
	}
	return folders, files
}

// plants returns the rare probe words per file number.
func plants(spec TreeSpec, nFiles int) map[int][]string {
	r := rand.New(rand.NewPCG(spec.Seed, 0x91a7))
	out := map[int][]string{}
	for _, w := range []string{RareJa, RareEn, RareMix} {
		for i := 0; i < spec.Planted; i++ {
			f := r.IntN(nFiles)
			out[f] = append(out[f], w)
		}
	}
	return out
}

// GenerateTree writes a tree into dir (emptied first), on every core, and
// stamps it. Files are written without fsync: the tree is cheap to make
// again.
func GenerateTree(dir string, spec TreeSpec, progress func(done, total int)) (*Tree, error) {
	spec.defaults()
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	t := &Tree{Version: TreeVersion, Spec: spec, Dir: dir}
	folders, files := layout(spec)
	for _, f := range folders {
		if err := os.MkdirAll(filepath.Join(t.Root(), filepath.FromSlash(f)), 0o755); err != nil {
			return nil, err
		}
	}
	pl := plants(spec, len(files))
	var next, done atomic.Int64
	var textBytes, lines atomic.Int64
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				n, l, err := writeTreeFile(t, spec, files[i], pl[i], 0)
				if err != nil {
					mu.Lock()
					firstErr = cmpOr(firstErr, err)
					mu.Unlock()
					return
				}
				textBytes.Add(n)
				lines.Add(l)
				if d := done.Add(1); progress != nil && d%1000 == 0 {
					progress(int(d), len(files))
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	t.Files, t.Folders, t.TextBytes, t.Lines = len(files), len(folders), textBytes.Load(), lines.Load()
	data, _ := json.MarshalIndent(t, "", "  ")
	return t, os.WriteFile(filepath.Join(dir, "tree.json"), data, 0o644)
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// writeTreeFile writes one file; variant 0 is the file as generated, other
// variants are edits of it (ChangeFiles). It returns the bytes and lines.
func writeTreeFile(t *Tree, spec TreeSpec, f treeFile, words []string, variant uint64) (int64, int64, error) {
	r := rand.New(rand.NewPCG(spec.Seed^uint64(f.index)<<20, uint64(f.index)<<8|variant))
	g := &gen{r: r}
	var lines []string
	size := int64(0)
	add := func(l string) {
		lines = append(lines, l)
		size += int64(len(l)) + 1
	}
	for size < f.target {
		switch f.kind {
		case ".tsv":
			add(g.row())
		case ".md":
			add(fmt.Sprintf("## %s%d %s", g.pick(jaNouns), 1+len(lines)/10, g.pick(katakana)))
			for i := 0; i < 8 && size < f.target; i++ {
				add("- " + g.sentence(10+g.r.IntN(40)))
			}
		case ".log":
			add(g.logLine())
		default:
			add(g.sentence(40 + g.r.IntN(120)))
		}
	}
	for _, w := range words {
		l := r.IntN(len(lines))
		lines[l] += " " + w + "の件"
	}
	var b strings.Builder
	b.Grow(int(size) + 64)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.Root(), filepath.FromSlash(f.rel))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return 0, 0, err
	}
	return int64(b.Len()), int64(len(lines)), nil
}

// ChangeFiles rewrites every step-th file (step 100: 1 % of the files)
// with other text of about the same size (variant > 0), or back to the
// generated text (variant 0), and returns the paths changed.
func (t *Tree) ChangeFiles(step int, variant uint64) ([]string, error) {
	_, files := layout(t.Spec)
	pl := plants(t.Spec, len(files))
	var out []string
	for i := step / 2; i < len(files); i += step {
		if _, _, err := writeTreeFile(t, t.Spec, files[i], pl[i], variant); err != nil {
			return out, err
		}
		out = append(out, filepath.Join(t.Root(), filepath.FromSlash(files[i].rel)))
	}
	return out, nil
}

// Folder names by depth: departments at the top, then years, customers,
// projects and the usual working folders, in Japanese and English.
var (
	topFolders = strings.Fields(`営業部 経理部 総務部 人事部 開発部 品質保証部 製造部 購買部 情報システム部 経営企画部 法務部 海外事業部
	Sales Engineering Marketing Legal HR Finance Operations`)
	workFolders = strings.Fields(`見積 契約書 議事録 請求書 納品書 提出済み 旧版 作業中 参考資料 社内資料 報告書 月次報告 規程 テンプレート 申請書
	old backup draft archive Projects Templates Reports Minutes Contracts Invoices shared work 共有 保管 確定版 検討中`)
)

func (g *gen) folderName(depth int) string {
	if depth == 0 {
		return g.pick(topFolders)
	}
	switch g.r.IntN(8) {
	case 0:
		return fmt.Sprintf("%d年度", 2016+g.r.IntN(10))
	case 1:
		return "株式会社" + g.pick(companies)
	case 2:
		return g.pick(companies) + "様"
	case 3:
		return fmt.Sprintf("案件%04d_%s", g.r.IntN(10000), g.pick(jaNouns))
	case 4:
		return fmt.Sprintf("%02d月", 1+g.r.IntN(12))
	case 5:
		return fmt.Sprintf("%d-Q%d", 2016+g.r.IntN(10), 1+g.r.IntN(4))
	case 6:
		return g.pick(places) + "_" + g.pick([]string{"支店", "営業所", "branch", "office"})
	default:
		return g.pick(workFolders)
	}
}

func (g *gen) fileName(kind string) string {
	date := fmt.Sprintf("%d%02d%02d", 2016+g.r.IntN(10), 1+g.r.IntN(12), 1+g.r.IntN(28))
	var base string
	switch g.r.IntN(7) {
	case 0:
		base = g.pick(jaNouns) + "_" + g.pick(companies) + "_" + date
	case 1:
		base = g.pick(jaNouns) + g.pick(jaNouns) + "_" + g.pick([]string{"v1", "v2", "v3", "最終", "最終版", "修正", "確定", "draft"})
	case 2:
		base = strings.Join([]string{g.pick(enWords), g.pick(enWords), date}, "_")
	case 3:
		base = fmt.Sprintf("%s_%s様_%s", g.pick(jaNouns), g.pick(surnames), date)
	case 4:
		base = fmt.Sprintf("%s%03d", g.pick([]string{"No", "資料", "report_", "memo_", "作業記録"}), g.r.IntN(1000))
	case 5:
		base = fmt.Sprintf("【%s】%s", g.pick([]string{"重要", "社外秘", "至急", "参考", "確認用"}), g.pick(jaNouns)+g.pick(jaNouns))
	default:
		base = g.pick(katakana) + "_" + g.pick(jaNouns) + "_" + date
	}
	if kind == ".log" {
		base = strings.Join([]string{g.pick([]string{"access", "app", "batch", "sync", "backup"}), date}, "_")
	}
	return base + kind
}
