package share

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// ImportOptions are the caller's choices for an import.
type ImportOptions struct {
	// Name is the index's name in this workspace; "" keeps the
	// manifest's indexName.
	Name string
	// Overwrite replaces an index of the same name (not a crawl root's).
	Overwrite bool
	// Progress gets the bytes read out of twice the index's size (the
	// check, then the copy).
	Progress Progress
	// Log gets the lines of a recovery of an earlier import (Recover).
	Log func(string)
}

// ImportResult says what an import registered.
type ImportResult struct {
	Name         string
	SourceFolder string
	Files        int   // files of the zip besides the manifest
	Rows         int   // ingest-list rows appended
	Bytes        int64 // bytes of the files
	Replaced     bool  // an index of the same name was overwritten
}

// stagePrefix starts the name of an import's staging folder in work/tmp.
const stagePrefix = "import-"

// pending is work/store/import_pending.json: an import past its commit
// point (doc.go, step 3).
type pending struct {
	Name         string `json:"name"`
	Stage        string `json:"stage"`   // the staging folder, relative to work/
	Replace      string `json:"replace"` // the stored name of the index overwritten, or ""
	SourceFolder string `json:"sourceFolder"`
	Summary      bool   `json:"summary"` // the zip had a summary
}

// PendingPath is work/store/import_pending.json.
func PendingPath(ws *workspace.Workspace) string {
	return filepath.Join(ws.Store(), "import_pending.json")
}

// Import verifies the zip at path and registers its index in ws (doc.go).
// A check that fails is a *RefusedError, a name in use without Overwrite
// a *ClashError, a refused name a *workspace.FolderError; nothing is
// written then. A workspace fault is a *workspace.FaultError.
func Import(ws *workspace.Workspace, path string, opt ImportOptions) (*ImportResult, error) {
	lock, err := ws.Lock()
	if errors.Is(err, workspace.ErrLocked) {
		return nil, refused(err, MsgImportBusy)
	}
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	if err := Recover(ws, opt.Log); err != nil {
		return nil, err
	}
	a, err := openArchive(path)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	name := opt.Name
	if name == "" {
		name = a.m.IndexName
	}
	if err := workspace.CheckNewName(name, func(string) bool { return false }); err != nil {
		return nil, err
	}
	replace, err := clash(ws, name, opt.Overwrite)
	if err != nil {
		return nil, err
	}
	// The rows are appended after the commit point: a list that cannot
	// take them stops the import here, before anything is written.
	if l, err := ingestlist.ReadFile(ws.IngestList()); err != nil {
		return nil, err
	} else if l.Encoding != ingestlist.Native && l.DataLines > 0 {
		return nil, refused(nil, MsgListForeign)
	}
	if free, err := freeSpace(ws.Work()); err == nil && free < uint64(a.total)+Headroom {
		return nil, refused(nil, MsgNoSpace, sizeText(a.total+Headroom), sizeText(int64(free)))
	}
	buf := make([]byte, copyBuffer)
	prog := &counter{total: 2 * a.total, fn: opt.Progress}
	for _, f := range a.m.Files {
		if err := a.copyEntry(f, nil, buf, prog.add); err != nil {
			return nil, err
		}
	}
	rows, err := a.readRows(name, buf)
	if err != nil {
		return nil, err
	}
	stage, err := a.stage(ws, rows, buf, prog)
	if err != nil {
		return nil, err
	}
	prog.done = prog.total
	prog.report(true)
	p := pending{Name: name, Stage: stage, Replace: replace, SourceFolder: a.m.SourceFolder}
	_, p.Summary = a.entries[SummaryEntry]
	data, _ := json.MarshalIndent(&p, "", "  ")
	if err := workspace.WriteFileAtomic(PendingPath(ws), data); err != nil {
		workspace.RemoveAll(filepath.Join(ws.Work(), stage))
		return nil, fault(err)
	}
	crashPoint("import-after-pending")
	if err := finish(ws, p); err != nil {
		return nil, err
	}
	return &ImportResult{Name: name, SourceFolder: a.m.SourceFolder, Files: len(a.m.Files), Rows: len(rows),
		Bytes: a.total, Replaced: replace != ""}, nil
}

// clash returns the stored name of the index that name would replace: ""
// when the name is free; a *ClashError when it is taken and overwrite is
// off; a refusal for a crawl root's index.
func clash(ws *workspace.Workspace, name string, overwrite bool) (string, error) {
	s, err := ws.LoadSettings()
	if s == nil {
		return "", err
	}
	key := workspace.FoldKey(name)
	taken := ""
	if r, _, ok := s.Root(name); ok {
		if !overwrite {
			return "", &ClashError{Name: r.Name}
		}
		return "", refused(nil, MsgOverwriteRoot, r.Name, r.Name)
	}
	for _, src := range s.IndexSources {
		if workspace.FoldKey(src.Name) == key {
			taken = src.Name
		}
	}
	if d, ok := findIndexDir(ws.ContentRoot(), name); ok {
		taken = d
	}
	if taken == "" {
		l, err := ingestlist.ReadFile(ws.IngestList())
		if err != nil {
			return "", err
		}
		for _, f := range l.Folders {
			if workspace.FoldKey(f.Name) == key {
				taken = f.Name
			}
		}
		for _, r := range l.Rows {
			if workspace.FoldKey(r.IndexName()) == key {
				taken = r.IndexName()
				break
			}
		}
	}
	if taken != "" && !overwrite {
		return "", &ClashError{Name: taken}
	}
	return taken, nil
}

// stage extracts the zip into a new staging folder under work/tmp and
// returns its name relative to work/ (doc.go, step 2). On an error it
// removes what it wrote.
func (a *archive) stage(ws *workspace.Workspace, rows []ingestlist.Row, buf []byte, prog *counter) (rel string, err error) {
	rel = filepath.Join("tmp", fmt.Sprintf("%s%d-%d", stagePrefix, os.Getpid(), time.Now().UnixNano()))
	dir := filepath.Join(ws.Work(), rel)
	defer func() {
		if err != nil {
			workspace.RemoveAll(dir)
		}
	}()
	if err := workspace.MkdirAll(filepath.Join(dir, "index")); err != nil {
		return "", fault(err)
	}
	for _, f := range a.m.Files {
		if f.Path == RowsEntry {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := workspace.MkdirAll(filepath.Dir(dst)); err != nil {
			return "", fault(err)
		}
		if err := a.extract(f, dst, buf, prog); err != nil {
			return "", err
		}
	}
	if err := ingestlist.WriteFile(filepath.Join(dir, "rows.tsv"), nil, rows); err != nil {
		return "", fault(err)
	}
	return rel, nil
}

// extract writes one entry to dst (a new file), checked as it is copied
// (the zip may have changed since the check) and fsynced.
func (a *archive) extract(f File, dst string, buf []byte, prog *counter) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fault(fmt.Errorf("share: create %s: %w", dst, err))
	}
	werr := a.copyEntry(f, out, buf, prog.add)
	if werr == nil {
		werr = workspace.Sync(out)
	}
	if cerr := out.Close(); werr == nil && cerr != nil {
		werr = cerr
	}
	var r *RefusedError
	if werr != nil && !errors.As(werr, &r) {
		return fault(fmt.Errorf("share: write %s: %w", dst, werr))
	}
	return werr
}

// fault returns the *workspace.FaultError of a write's error when it is
// one, else the error.
func fault(err error) error {
	if f := workspace.WriteFault(err); f != nil {
		return f
	}
	return err
}

// counter turns bytes copied into Progress calls.
type counter struct {
	done, total, reported int64
	fn                    Progress
}

func (c *counter) add(n int) {
	c.done += int64(n)
	c.report(false)
}

func (c *counter) report(final bool) {
	if c.fn != nil && (final || c.done-c.reported >= progressStep) {
		c.reported = c.done
		c.fn(min(c.done, c.total), c.total)
	}
}

// UploadPrefix starts the name of a zip that the web UI received for an
// import, saved in work/tmp as upload-<pid>-<n>.zip until it is imported.
const UploadPrefix = "upload-"

// stagedNames lists what Recover may remove: the staging folders in
// work/tmp, and uploads that another process (a killed server) left.
func stagedNames(ws *workspace.Workspace) []string {
	entries, _ := os.ReadDir(ws.TmpRoot())
	var out []string
	mine := fmt.Sprintf("%s%d-", UploadPrefix, os.Getpid())
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, stagePrefix) || strings.HasPrefix(n, UploadPrefix) && !strings.HasPrefix(n, mine) {
			out = append(out, n)
		}
	}
	return out
}
