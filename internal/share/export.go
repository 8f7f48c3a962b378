package share

import (
	"archive/zip"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/bodyindex/summary"
	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Progress receives the bytes done out of the total, at most every
// progressStep bytes and once at the end. nil reports nothing.
type Progress func(done, total int64)

// progressStep is how often (in bytes) Progress is called.
const progressStep = 4 << 20

// copyBuffer is the one buffer a copy uses: export and import hold a
// constant amount of file data, whatever the index's size.
const copyBuffer = 256 << 10

// ExportOptions are the caller's settings of an export.
type ExportOptions struct {
	AppVersion string
	Progress   Progress
	Now        func() time.Time // nil: time.Now
}

// ExportResult says what an export wrote.
type ExportResult struct {
	Name  string // the index's name as stored
	Files int    // entries besides the manifest
	Rows  int    // ingest-list rows
	Bytes int64  // uncompressed bytes of the entries
}

// Export writes the index name of ws as a zip to w (doc.go). It holds the
// workspace lock throughout (the index must not change while it is read)
// and refuses while an indexing run or an import holds it.
func Export(ws *workspace.Workspace, name string, w io.Writer, opt ExportOptions) (*ExportResult, error) {
	lock, err := ws.Lock()
	if errors.Is(err, workspace.ErrLocked) {
		return nil, refused(err, MsgExportBusy)
	}
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	dirName, ok := findIndexDir(ws.ContentRoot(), name)
	if !ok {
		return nil, refused(nil, MsgNotFound, name)
	}
	// A killed run's batch file holds places not yet published (issue 35),
	// as a per-file folder does: the next run publishes them.
	if batches, _ := content.ListBatches(ws.BatchDir()); len(batches) > 0 {
		return nil, refused(nil, MsgUnpublished, dirName)
	}
	files, total, err := listIndex(ws.ContentRoot(), dirName)
	if err != nil {
		return nil, err
	}
	rows, source, err := indexRows(ws, dirName)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	m := Manifest{Format: FormatName, FormatVersion: FormatVersion, AppVersion: opt.AppVersion,
		ExportedAt: now().Format(time.RFC3339), IndexName: dirName, SourceFolder: source}
	x := &exporter{zw: zip.NewWriter(w), buf: make([]byte, copyBuffer), total: total, progress: opt.Progress}
	// Fastest Deflate: body-index parts shrink to about half either way,
	// and the default level took three times as long (a 300 MB index:
	// 33 s against 9 s on two shared cores).
	x.zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})

	// The rows: small beside the index, and counted in no progress.
	var tsv strings.Builder
	if err := ingestlist.Write(&tsv, nil, rows); err != nil {
		return nil, err
	}
	if err := x.add(&m, RowsEntry, strings.NewReader(tsv.String()), -1); err != nil {
		return nil, err
	}
	// A summary is exported only when it describes the index: one marked
	// as changing (a run was cut) is left out, and the importer's
	// searches list the folders until it has one.
	if p := summary.Path(ws.ContentRoot(), dirName); fileExists(p) && !summary.Changing(ws.ContentRoot(), dirName) {
		files = append([]string{p}, files...)
	}
	for _, p := range files {
		entry := SummaryEntry
		if rel, ok := strings.CutPrefix(p, filepath.Join(ws.ContentRoot(), dirName)+string(filepath.Separator)); ok {
			entry = IndexDir + filepath.ToSlash(rel)
		}
		if err := x.addFile(&m, entry, p); err != nil {
			return nil, err
		}
	}
	data, err := json.MarshalIndent(&m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("share: encode manifest: %w", err)
	}
	if err := x.add(nil, ManifestEntry, strings.NewReader(string(data)+"\n"), -1); err != nil {
		return nil, err
	}
	if err := x.zw.Close(); err != nil {
		return nil, fmt.Errorf("share: finish zip: %w", err)
	}
	x.report(true)
	return &ExportResult{Name: dirName, Files: len(m.Files), Rows: len(rows), Bytes: x.done}, nil
}

// exporter writes entries and keeps the manifest's list.
type exporter struct {
	zw       *zip.Writer
	buf      []byte
	done     int64 // bytes of index files written
	total    int64
	reported int64
	progress Progress
}

func (x *exporter) addFile(m *Manifest, entry, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("share: export %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("share: export %s: %w", path, err)
	}
	return x.add(m, entry, f, st.Size())
}

// add writes one entry from r, hashing what it copies, and lists it in m
// (nil: the manifest itself). size ≥ 0 is what r must give (a file that
// changed under the lock is an error); it is counted in the progress.
func (x *exporter) add(m *Manifest, entry string, r io.Reader, size int64) error {
	zf, err := x.zw.CreateHeader(&zip.FileHeader{Name: entry, Method: zip.Deflate, Modified: time.Now(), Flags: 0x800})
	if err != nil {
		return fmt.Errorf("share: export %s: %w", entry, err)
	}
	h := sha256.New()
	var n int64
	for {
		k, rerr := r.Read(x.buf)
		if k > 0 {
			h.Write(x.buf[:k])
			if _, err := zf.Write(x.buf[:k]); err != nil {
				return fmt.Errorf("share: export %s: %w", entry, err)
			}
			n += int64(k)
			if size >= 0 {
				x.done += int64(k)
				x.report(false)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return fmt.Errorf("share: export %s: %w", entry, rerr)
		}
	}
	if size >= 0 && n != size {
		return fmt.Errorf("share: export %s: read %d bytes, want %d", entry, n, size)
	}
	if m != nil {
		m.Files = append(m.Files, File{Path: entry, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	}
	return nil
}

func (x *exporter) report(final bool) {
	if x.progress != nil && (final || x.done-x.reported >= progressStep) {
		x.reported = x.done
		x.progress(x.done, x.total)
	}
}

// findIndexDir returns the stored name of the index folder that name
// names (case-insensitive, as index names compare).
func findIndexDir(contentRoot, name string) (string, bool) {
	entries, _ := os.ReadDir(contentRoot)
	for _, e := range entries {
		if e.IsDir() && workspace.FoldKey(e.Name()) == workspace.FoldKey(name) && workspace.TestStoredIndexName(e.Name()) {
			return e.Name(), true
		}
	}
	return "", false
}

// listIndex lists the body-index files of the index folder (sorted, as
// WalkDir walks) and their total size. A per-file folder (place TSVs not
// yet published) refuses the export; dot folders (deferred deletions) and
// other files (temporary names) are left out.
func listIndex(contentRoot, dirName string) ([]string, int64, error) {
	root := filepath.Join(contentRoot, dirName)
	var files []string
	var total int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if fileExists(filepath.Join(p, content.ManifestName)) {
				return refused(nil, MsgUnpublished, dirName)
			}
			if !workspace.TestStoredIndexName(d.Name()) || workspace.IsReservedName(d.Name()) {
				rel, _ := filepath.Rel(root, p)
				return refused(nil, MsgExportName, dirName, rel)
			}
			return nil
		}
		if !d.Type().IsRegular() || !bodyFile(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, p)
		total += info.Size()
		return nil
	})
	if err != nil {
		var r *RefusedError
		if errors.As(err, &r) {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("share: list %s: %w", root, err)
	}
	return files, total, nil
}

// indexRows returns the ingest-list rows of the index with the prefix
// "<index>\" removed, and its source folder: the crawl root's path, else
// the recorded indexSources entry, else its folder line.
func indexRows(ws *workspace.Workspace, dirName string) ([]ingestlist.Row, string, error) {
	l, err := ingestlist.ReadFile(ws.IngestList())
	if err != nil {
		return nil, "", err
	}
	key := workspace.FoldKey(dirName)
	var rows []ingestlist.Row
	for _, r := range l.Rows {
		idx, rest := ingestlist.SplitRelPath(r.RelPath)
		if workspace.FoldKey(idx) == key && rest != "" {
			r.RelPath = rest
			rows = append(rows, r)
		}
	}
	source := ""
	for _, f := range l.Folders {
		if workspace.FoldKey(f.Name) == key {
			source = f.Path
		}
	}
	if s, err := ws.LoadSettings(); s != nil {
		for _, src := range s.IndexSources {
			if workspace.FoldKey(src.Name) == key && src.Path != "" {
				source = src.Path
			}
		}
		if r, _, ok := s.Root(dirName); ok {
			source = r.Path
		}
	} else if err != nil {
		return nil, "", err
	}
	return rows, source, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
