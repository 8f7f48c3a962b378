// Package searchcorpus generates the search benchmark's corpus: a
// deterministic mix of Japanese and English text shaped like extracted
// Office files (Excel rows, Word paragraphs, PowerPoint slides, text
// files), written as per-file folders in a workspace's content store and
// published into body indexes, plus the same text as plain files for
// ripgrep and lines for SQLite FTS5.
//
// Layout under Dir:
//
//	ws/settings.json                  one crawl root, the index "bench"
//	ws/work/store/content/bench/...   the body indexes (after Publish)
//	text/bench/...                    one plain UTF-8 file per source file (LF)
//	corpus.json                       the Spec and the counts (reuse check)
package searchcorpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex"
	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/extract"
)

// Index is the index name of the generated corpus.
const Index = "bench"

// Spec says what to generate. The same Spec gives the same bytes.
type Spec struct {
	TextBytes      int64  // extracted text to generate (UTF-8, one LF per line)
	MeanFileBytes  int64  // mean text per file (default 50,000: 1 GB in 20,000 files)
	FilesPerFolder int    // default 50
	Seed           uint64 // default 1
	Planted        int    // lines holding each rare probe word (default 5)
}

func (s *Spec) defaults() {
	if s.MeanFileBytes == 0 {
		s.MeanFileBytes = 50000
	}
	if s.FilesPerFolder == 0 {
		s.FilesPerFolder = 50
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.Planted == 0 {
		s.Planted = 5
	}
}

// Corpus is a generated corpus.
type Corpus struct {
	Spec      Spec
	Format    int    // format.Version it was published with
	Dir       string `json:"-"`
	Files     int
	Folders   int
	Lines     int64
	TextBytes int64
	Published bool
	// PublishTime is how long publishing every folder took.
	PublishTime time.Duration
}

// Workspace returns the workspace folder.
func (c *Corpus) Workspace() string { return filepath.Join(c.Dir, "ws") }

// ContentRoot returns work/store/content of the workspace.
func (c *Corpus) ContentRoot() string {
	return filepath.Join(c.Dir, "ws", "work", "store", "content")
}

// TextRoot returns the folder of plain text files (for rg).
func (c *Corpus) TextRoot() string { return filepath.Join(c.Dir, "text") }

// Open returns the corpus in dir if it was generated with spec and
// published, else nil.
func Open(dir string, spec Spec) *Corpus {
	spec.defaults()
	data, err := os.ReadFile(filepath.Join(dir, "corpus.json"))
	if err != nil {
		return nil
	}
	var c Corpus
	if json.Unmarshal(data, &c) != nil || c.Spec != spec || !c.Published || c.Format != format.Version {
		return nil
	}
	c.Dir = dir
	return &c
}

func (c *Corpus) save() error {
	data, _ := json.MarshalIndent(c, "", "  ")
	return os.WriteFile(filepath.Join(c.Dir, "corpus.json"), data, 0o644)
}

// Generate writes a corpus into dir (emptied first): per-file folders
// (not yet published) and the plain text files. Per-file folders are
// written without fsync, unlike package content, to keep generation fast.
func Generate(dir string, spec Spec) (*Corpus, error) {
	spec.defaults()
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	c := &Corpus{Spec: spec, Dir: dir}
	if err := os.MkdirAll(c.ContentRoot(), 0o755); err != nil {
		return nil, err
	}
	settings := fmt.Sprintf(`{"targetFolders":[{"name":%q,"path":%q}]}`, Index, filepath.Join(c.TextRoot(), Index))
	if err := os.WriteFile(filepath.Join(c.Workspace(), "settings.json"), []byte(settings), 0o644); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(spec.Seed, 0x5eed))
	nFiles := int(max(1, spec.TextBytes/spec.MeanFileBytes))
	nFolders := max(1, (nFiles+spec.FilesPerFolder-1)/spec.FilesPerFolder)
	plants := map[int][]string{}
	for _, w := range []string{RareJa, RareEn, RareMix} {
		for i := 0; i < spec.Planted; i++ {
			f := r.IntN(nFiles)
			plants[f] = append(plants[f], w)
		}
	}
	g := &gen{r: r}
	remaining := spec.TextBytes
	for i := 0; i < nFiles; i++ {
		folder := folderName(i/spec.FilesPerFolder, nFolders)
		target := spec.MeanFileBytes/5 + r.Int64N(spec.MeanFileBytes*8/5+1)
		if i == nFiles-1 {
			target = max(remaining, 1)
		}
		kind := []string{".xlsx", ".xlsx", ".xlsx", ".xlsx", ".docx", ".docx", ".docx", ".pptx", ".pptx", ".txt"}[r.IntN(10)]
		name := fmt.Sprintf("%s_%05d%s", g.pick(jaNouns), i, kind)
		places := g.file(kind, target)
		for _, w := range plants[i] {
			p := &places[r.IntN(len(places))]
			l := r.IntN(len(p.Lines))
			p.Lines[l] += " " + w + "の件"
		}
		n, lines, err := writeFile(c, folder, name, places)
		if err != nil {
			return nil, err
		}
		remaining -= n
		c.TextBytes += n
		c.Lines += lines
		c.Files++
	}
	c.Folders = nFolders
	return c, c.save()
}

// folderName spreads folders over two levels: `部署03\案件012`.
func folderName(i, n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf("部署%02d\\案件%03d", i%10, i)
}

// writeFile writes one file's per-file folder and its plain text; it
// returns the text bytes (LF per line) and lines.
func writeFile(c *Corpus, folder, name string, places []extract.Place) (int64, int64, error) {
	rel := Index
	if folder != "" {
		rel += `\` + folder
	}
	dir := filepath.Join(content.Dir(c.ContentRoot(), rel), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, err
	}
	var manifest, text bytes.Buffer
	var lines int64
	for _, p := range places {
		fn, err := content.FileName(p.Name)
		if err != nil {
			return 0, 0, err
		}
		if err := os.WriteFile(filepath.Join(dir, fn), content.Encode(p.Lines), 0o644); err != nil {
			return 0, 0, err
		}
		manifest.WriteString(fn + "\n")
		for _, l := range p.Lines {
			text.WriteString(l)
			text.WriteByte('\n')
			lines++
		}
	}
	if err := os.WriteFile(filepath.Join(dir, content.ManifestName), manifest.Bytes(), 0o644); err != nil {
		return 0, 0, err
	}
	tdir := content.Dir(c.TextRoot(), rel)
	if err := os.MkdirAll(tdir, 0o755); err != nil {
		return 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(tdir, name), text.Bytes(), 0o644); err != nil {
		return 0, 0, err
	}
	return int64(text.Len()), lines, nil
}

// Publish publishes every folder of the corpus, one after the other as the
// indexer does, and records the time.
func (c *Corpus) Publish() error {
	var dirs []string
	err := filepath.WalkDir(c.ContentRoot(), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && content.IsFileFolder(path) {
			if p := filepath.Dir(path); len(dirs) == 0 || dirs[len(dirs)-1] != p {
				dirs = append(dirs, p)
			}
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return err
	}
	start := time.Now()
	for _, d := range dirs {
		if err := bodyindex.Publish(d, nil); err != nil {
			return err
		}
	}
	c.PublishTime = time.Since(start)
	if _, err := c.Summarize(); err != nil {
		return err
	}
	c.Published = true
	c.Format = format.Version
	return c.save()
}

// IndexBytes returns the size of every body index file.
func (c *Corpus) IndexBytes() (int64, error) {
	var n int64
	err := filepath.WalkDir(c.ContentRoot(), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), format.ManifestName) {
			st, err := d.Info()
			if err != nil {
				return err
			}
			n += st.Size()
		}
		return nil
	})
	if st, err := os.Stat(summary.Path(c.ContentRoot(), Index)); err == nil {
		n += st.Size()
	}
	return n, err
}

// Summarize brings the index summary up to date, as an indexing run does
// at its end, and says how long that took.
func (c *Corpus) Summarize() (time.Duration, error) {
	t0 := time.Now()
	err := summary.Write(c.ContentRoot(), Index)
	return time.Since(t0), err
}

// gen makes the text.
type gen struct {
	r *rand.Rand
	b strings.Builder
}

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// file returns the places of one file of about target text bytes.
func (g *gen) file(kind string, target int64) []extract.Place {
	var places []extract.Place
	size := int64(0)
	add := func(name string, line func() string, per int) {
		p := extract.Place{Name: name}
		for i := 0; i < per && size < target; i++ {
			l := line()
			p.Lines = append(p.Lines, l)
			size += int64(len(l)) + 1
		}
		if len(p.Lines) > 0 {
			places = append(places, p)
		}
	}
	switch kind {
	case ".xlsx":
		for s := 1; size < target; s++ {
			sheet := fmt.Sprintf("%s%d", g.pick([]string{"見積", "明細", "集計", "Sheet", "売上", "在庫"}), s)
			add(sheet, g.row, 200+g.r.IntN(400))
			if g.r.IntN(4) == 0 {
				add(sheet+"[図形]", func() string { return g.cell() + "\t" + g.sentence(20) }, 3)
			}
			if g.r.IntN(5) == 0 {
				add(sheet+"[コメント]", func() string { return g.cell() + "\t" + g.pick(surnames) + ": " + g.sentence(15) }, 2)
			}
		}
	case ".docx":
		for pg := 1; size < target; pg++ {
			add(fmt.Sprintf("ページ%03d", pg), func() string { return g.sentence(40 + g.r.IntN(120)) }, 20+g.r.IntN(20))
		}
		add("ヘッダー・フッター", func() string { return "社外秘 " + g.pick(companies) }, 1)
	case ".pptx":
		for s := 1; size < target; s++ {
			add(fmt.Sprintf("スライド%03d", s), func() string { return g.sentence(10 + g.r.IntN(40)) }, 8)
			add(fmt.Sprintf("スライド%03d_ノート", s), func() string { return g.sentence(60) }, 2)
		}
	default:
		add("本文", g.logLine, 1<<30)
	}
	if len(places) == 0 {
		places = append(places, extract.Place{Name: "本文", Lines: []string{g.sentence(10)}})
	}
	return places
}

// row is an Excel row: cells of names, numbers, dates, codes.
func (g *gen) row() string {
	g.b.Reset()
	n := 3 + g.r.IntN(9)
	for i := 0; i < n; i++ {
		if i > 0 {
			g.b.WriteByte('\t')
		}
		switch g.r.IntN(10) {
		case 0:
			// empty cell
		case 1, 2:
			fmt.Fprintf(&g.b, "%d,%03d", g.r.IntN(999)+1, g.r.IntN(1000))
		case 3:
			fmt.Fprintf(&g.b, "2024/%02d/%02d", 1+g.r.IntN(12), 1+g.r.IntN(28))
		case 4:
			g.b.WriteString("株式会社" + g.pick(companies))
		case 5:
			fmt.Fprintf(&g.b, "%c%c-%04d", 'A'+g.r.IntN(26), 'A'+g.r.IntN(26), g.r.IntN(10000))
		case 6:
			fmt.Fprintf(&g.b, "%d%s", 1+g.r.IntN(500), g.pick(units))
		case 7:
			g.b.WriteString(g.pick(surnames))
		default:
			g.b.WriteString(g.pick(jaNouns) + g.pick(jaNouns))
		}
	}
	return strings.TrimRight(g.b.String(), "\t")
}

func (g *gen) cell() string {
	return fmt.Sprintf("%c%d", 'A'+g.r.IntN(10), 1+g.r.IntN(200))
}

// sentence is a Japanese sentence of about n characters, sometimes with
// English words, katakana and full-width alphanumerics.
func (g *gen) sentence(n int) string {
	var b strings.Builder
	chars := 0
	for chars < n {
		var w string
		switch g.r.IntN(14) {
		case 0:
			w = g.pick(katakana)
		case 1:
			w = g.pick(enWords) + " " + g.pick(enWords)
		case 2:
			w = fmt.Sprintf("%d月%d日", 1+g.r.IntN(12), 1+g.r.IntN(28))
		case 3:
			w = "株式会社" + g.pick(companies)
		case 4:
			w = g.pick(surnames) + "様"
		case 5:
			w = fmt.Sprintf("ＮＯ．%d", g.r.IntN(1000))
		default:
			w = g.pick(jaNouns)
		}
		b.WriteString(w)
		chars += len([]rune(w))
		if g.r.IntN(3) == 0 {
			b.WriteString(g.pick(jaParticles))
			chars++
		}
	}
	b.WriteString(g.pick(jaVerbs) + "。")
	return b.String()
}

// logLine is a line of a text file: an English log line or a memo.
func (g *gen) logLine() string {
	if g.r.IntN(3) == 0 {
		return g.sentence(30)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "2024-%02d-%02d %02d:%02d:%02d %s", 1+g.r.IntN(12), 1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60),
		[]string{"INFO", "WARN", "ERROR", "DEBUG"}[g.r.IntN(4)])
	for i := 0; i < 6+g.r.IntN(8); i++ {
		b.WriteString(" " + g.pick(enWords))
	}
	fmt.Fprintf(&b, " id=%d user=%s", g.r.IntN(1000000), strings.ToLower(string(rune('a'+g.r.IntN(26))))+fmt.Sprint(g.r.IntN(100)))
	return b.String()
}

// SampleFiles returns n files' places of about meanBytes of text each,
// as Generate makes them (the same mix of kinds, no planted words), in
// memory: the input of the encoder's benchmarks (bench/encode).
func SampleFiles(seed uint64, n int, meanBytes int64) [][]extract.Place {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	g := &gen{r: r}
	files := make([][]extract.Place, n)
	for i := range files {
		target := meanBytes/5 + r.Int64N(meanBytes*8/5+1)
		kind := []string{".xlsx", ".xlsx", ".xlsx", ".xlsx", ".docx", ".docx", ".docx", ".pptx", ".pptx", ".txt"}[r.IntN(10)]
		files[i] = g.file(kind, target)
	}
	return files
}
