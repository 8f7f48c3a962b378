package crawl

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// File is one target file found under a root.
type File struct {
	RelPath   string    // `<index>\<path under the root>`, `\` separators
	Path      string    // absolute OS path
	ModTime   time.Time // last write time
	Size      int64
	CloudOnly bool // present only in the cloud: never opened (issue 9)
}

// Skip is an item left out with a reason worth logging.
type Skip struct {
	Path   string
	Reason string
}

// Result is the crawl of one root.
type Result struct {
	Files      []File // sorted by RelPath, case-insensitively
	Missing    bool   // the root does not exist or is not a folder
	Incomplete bool   // some folder could not be read (HasError)
	Errors     []error
	Skipped    []Skip
}

// Attributes answers per-OS questions about a file without opening it.
type Attributes interface {
	// Hidden reports the Hidden or System attribute (Windows); dot names
	// are handled by the crawl itself.
	Hidden(path string, info fs.FileInfo) bool
	// CloudOnly reports a placeholder whose data is not on this machine.
	CloudOnly(path string, info fs.FileInfo) bool
	// ReparsePoint reports the reparse point of an entry the listing shows
	// as neither a file, a folder nor a symlink (Windows; ok false
	// elsewhere). It must not open the file.
	ReparsePoint(path string, info fs.FileInfo) (rp Reparse, ok bool)
}

// Options configure a crawl.
type Options struct {
	// Exclude holds folders never entered (the workspace).
	Exclude []string
	// Attrs defaults to the OS's attributes (OSAttributes).
	Attrs Attributes
	// Only, when set, limits the crawl to these paths under the root
	// (`\` separators, no index name; a file or a folder, whose whole
	// subtree is crawled): the folders above them are listed and filtered
	// exactly as a full crawl does, so a path is found if and only if a
	// full crawl would find it. A path that does not exist gives nothing.
	Only []string
}

// Skip reasons (log wording).
const (
	ReasonBackslash = "名前に \\ が含まれるため取り込みません"
	ReasonBadName   = "ファイルやフォルダの名前をインデックスに記録できないため取り込みません"
	ReasonCaseDup   = "大文字・小文字だけが違う名前がほかにあるため取り込みません"
	ReasonWorkspace = "fumibako・tebunko のワークスペースのため取り込みません"
	ReasonSymlink   = "シンボリックリンクのため取り込みません"
)

// Crawl lists the target files of root. It fails only when ctx is done;
// everything else is recorded in the Result.
func Crawl(ctx context.Context, root workspace.Root, opt Options) (*Result, error) {
	attrs := opt.Attrs
	if attrs == nil {
		attrs = OSAttributes()
	}
	res := &Result{}
	base := filepath.Clean(root.Path)
	st, err := os.Stat(base)
	if err != nil || !st.IsDir() {
		res.Missing = true
		return res, nil
	}
	var excl []string
	for _, e := range opt.Exclude {
		excl = append(excl, filepath.Clean(e))
		if r, err := filepath.EvalSymlinks(e); err == nil {
			excl = append(excl, r)
		}
	}
	c := &crawler{ctx: ctx, res: res, attrs: attrs, exclude: excl, index: root.Name, images: root.OCRImages}
	var want *scope
	if len(opt.Only) > 0 {
		want = newScope(opt.Only)
	}
	if err := c.walk(base, "", want); err != nil {
		return nil, err
	}
	sortFiles(res.Files)
	return res, nil
}

// sortFiles sorts files by the FoldKey of their RelPath, each key made
// once: upper-casing both names in every comparison cost N log N case
// mappings, two thirds of the CPU of an unchanged rerun at 20,000 files.
// Files whose keys are equal (names differing in case only) keep the
// walk's order.
func sortFiles(files []File) {
	type keyed struct {
		key string
		i   int
	}
	keys := make([]keyed, len(files))
	for i, f := range files {
		keys[i] = keyed{workspace.FoldKey(f.RelPath), i}
	}
	slices.SortStableFunc(keys, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	sorted := make([]File, len(files))
	for i, k := range keys {
		sorted[i] = files[k.i]
	}
	copy(files, sorted)
}

type crawler struct {
	ctx     context.Context
	res     *Result
	attrs   Attributes
	exclude []string
	index   string
	images  bool // the root reads image files by OCR (workspace.Root.OCRImages)
}

func (c *crawler) excluded(dir string) bool {
	for _, e := range c.exclude {
		if workspace.IsWithin(dir, e) {
			return true
		}
	}
	return false
}

// walk lists dir (rel is its `\` path under the root, "" for the root);
// a non-nil want keeps only the entries it names (Options.Only).
func (c *crawler) walk(dir, rel string, want *scope) error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	if c.excluded(dir) || workspace.IsWorkspace(dir) {
		c.res.Skipped = append(c.res.Skipped, Skip{Path: dir, Reason: ReasonWorkspace})
		return nil
	}
	entries, err := readDir(dir)
	if want != nil && err != nil && errors.Is(err, fs.ErrNotExist) && rel != "" {
		return nil // a scoped folder that went away: nothing under it
	}
	if err != nil {
		c.res.Incomplete = true
		c.res.Errors = append(c.res.Errors, fmt.Errorf("crawl: read folder %s: %w", dir, err))
		if len(entries) == 0 {
			return nil
		}
	}
	seen := map[string]string{}
	for _, d := range entries {
		name := d.Name()
		path := filepath.Join(dir, name)
		if strings.HasPrefix(name, ".") {
			continue
		}
		// Entries of other names cannot collide with a wanted one (the
		// case-duplicate check compares fold keys), so filtering by fold
		// key first gives what a full crawl gives for the wanted paths.
		sub := want.child(name)
		if want != nil && sub == nil {
			continue
		}
		isDir := d.IsDir()
		if !isDir && !d.Type().IsRegular() {
			switch kind, rp := c.kindOf(path, d); kind {
			case kindDir:
				isDir = true
			case kindLink:
				if rp.Dir || c.isTarget(name) {
					c.res.Skipped = append(c.res.Skipped, Skip{Path: path, Reason: ReasonSymlink})
				}
				continue
			case kindOther:
				continue
			}
		}
		if !isDir && (!c.isTarget(name) || isOwnOutput(name) || want != nil && !sub.all) {
			continue
		}
		info, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			c.res.Incomplete = true
			c.res.Errors = append(c.res.Errors, fmt.Errorf("crawl: stat %s: %w", path, err))
			continue
		}
		if c.attrs.Hidden(path, info) {
			continue
		}
		switch {
		case strings.ContainsRune(name, '\\'):
			c.res.Skipped = append(c.res.Skipped, Skip{Path: path, Reason: ReasonBackslash})
			continue
		case !utf8.ValidString(name) || !workspace.TestStoredIndexName(name):
			c.res.Skipped = append(c.res.Skipped, Skip{Path: path, Reason: ReasonBadName})
			continue
		}
		k := workspace.FoldKey(name)
		if _, dup := seen[k]; dup {
			c.res.Skipped = append(c.res.Skipped, Skip{Path: path, Reason: ReasonCaseDup})
			continue
		}
		seen[k] = name
		childRel := name
		if rel != "" {
			childRel = rel + `\` + name
		}
		if isDir {
			if err := c.walk(path, childRel, sub.below()); err != nil {
				return err
			}
			continue
		}
		c.res.Files = append(c.res.Files, File{
			RelPath:   c.index + `\` + childRel,
			Path:      path,
			ModTime:   info.ModTime(),
			Size:      info.Size(),
			CloudOnly: c.attrs.CloudOnly(path, info),
		})
	}
	return nil
}

// kindOf classifies an entry that is neither a plain file nor a plain
// folder: a symlink, or on Windows a reparse point (reparse.go). It reads the
// folder listing only, never the file.
func (c *crawler) kindOf(path string, d fs.DirEntry) (entryKind, Reparse) {
	if d.Type()&fs.ModeSymlink != 0 {
		return kindLink, Reparse{}
	}
	info, err := d.Info()
	if err != nil {
		return kindOther, Reparse{}
	}
	rp, ok := c.attrs.ReparsePoint(path, info)
	return classify(d.Type(), rp, ok), rp
}

// isOwnOutput matches tebunko's and fumibako's output names, never indexed
// (reference/indexing.md §3.3 item 3).
func isOwnOutput(name string) bool {
	l := strings.ToLower(name)
	return (strings.HasPrefix(l, "content_index.") && strings.HasSuffix(l, ".tsv")) ||
		(strings.HasPrefix(l, "content.") && strings.HasSuffix(l, ".tsv")) ||
		(strings.HasPrefix(l, "system_index") && strings.HasSuffix(l, ".txt")) ||
		(strings.HasPrefix(name, "システムインデックス") && strings.HasSuffix(l, ".txt"))
}

// readDir is a fault seam: tests replace it to make a folder unreadable
// (permissions do not stop root, which CI runs as).
var readDir = os.ReadDir

// IsImage reports whether a file name is an image file read by OCR
// (issue 29; extract.KindImage): a target only under a root with
// ocrImages on, whatever else says about it, because photo folders are
// large.
func IsImage(name string) bool {
	k, _ := extract.KindOf(name)
	return k == extract.KindImage
}

// IsTarget reports whether a root lists a file name, for the crawl and
// for the watcher's events alike: an image only when the root reads
// images, anything else when extract targets it.
func IsTarget(name string, readsImages bool) bool {
	if IsImage(name) {
		return readsImages && !strings.HasPrefix(name, "~$")
	}
	return extract.IsTarget(name)
}

func (c *crawler) isTarget(name string) bool { return IsTarget(name, c.images) }
