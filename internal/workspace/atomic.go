package workspace

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/osfile"
)

// WriteFileAtomic replaces path with data so that a crash at any moment
// leaves either the old file or the complete new one: it writes
// "<path>.tmp" in the same folder, checks the length, fsyncs, closes
// (before renaming, for Windows), renames over path (retrying sharing
// errors on Windows) and fsyncs the folder. It is the one atomic write of
// the program: the ingest list, the journal, pending_remove.tsv, the body
// index's parts, manifests and summaries, settings.json and the search
// export all go through it.
func WriteFileAtomic(path string, data []byte) error {
	return writeFileAtomic(path, data, true)
}

// WriteFileAtomicNoDirSync is WriteFileAtomic without the folder's fsync,
// for a writer that puts several files into one folder and then calls
// SyncDir once (the body index's parts): until then a crash may lose the
// renames, never mix old and new bytes.
func WriteFileAtomicNoDirSync(path string, data []byte) error {
	return writeFileAtomic(path, data, false)
}

// WriteFileAtomicUnique is WriteFileAtomic with a temporary name of its
// own, "<path>.<random>.tmp", created exclusively: for a file that several
// processes may rewrite at once (settings.json), where one shared
// "<path>.tmp" lets one writer truncate or rename away another's bytes
// (issue 36). The caller removes what a crash leaves (RemoveStaleTemps).
func WriteFileAtomicUnique(path string, data []byte) error {
	f, err := createAtomic(path, true)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.commit(true)
}

func writeFileAtomic(path string, data []byte, syncDir bool) error {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.commit(syncDir)
}

// AtomicFile is a file being written under a temporary name; Commit moves it
// into place, Abort removes it. It is the streaming form of WriteFileAtomic.
type AtomicFile struct {
	path, tmp string
	f         *os.File
	n         int64
	err       error
}

// tmpSuffix names the temporary file of an atomic rewrite.
const tmpSuffix = ".tmp"

// CreateAtomic starts an atomic rewrite of path. The temporary file is
// "<path>.tmp" in the same folder (the seed names ingest_status.tsv.tmp).
func CreateAtomic(path string) (*AtomicFile, error) { return createAtomic(path, false) }

// uniquePattern is the os.CreateTemp pattern of a unique temporary name.
const uniquePattern = ".*" + tmpSuffix

// createAtomic opens the temporary file of an atomic rewrite of path:
// "<path>.tmp", or with unique "<path>.<random>.tmp" created exclusively.
func createAtomic(path string, unique bool) (*AtomicFile, error) {
	tmp := path + tmpSuffix
	if unique {
		tmp = path + uniquePattern
	}
	if err := injectedFault(opCreate, tmp); err != nil {
		return nil, fmt.Errorf("workspace: create %s: %w", tmp, err)
	}
	var f *os.File
	var err error
	if unique {
		f, err = os.CreateTemp(filepath.Dir(path), filepath.Base(path)+uniquePattern)
	} else {
		f, err = osfile.Open(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: create %s: %w", tmp, err)
	}
	if unique {
		tmp = f.Name()
		// CreateTemp makes 0600; the file replaces one that others may
		// read. A file system without modes keeps what it has.
		f.Chmod(0o644)
	}
	return &AtomicFile{path: path, tmp: tmp, f: f}, nil
}

// RemoveStaleTemps removes the unique temporary files of path
// ("<path>.<random>.tmp") that a killed writer left behind. Only a caller
// that knows no other writer is at work (it holds the file's lock) may
// call it.
func RemoveStaleTemps(path string) {
	entries, _ := os.ReadDir(filepath.Dir(path))
	prefix := filepath.Base(path) + "."
	for _, e := range entries {
		mid, ok := strings.CutPrefix(e.Name(), prefix)
		if mid, ok2 := strings.CutSuffix(mid, tmpSuffix); ok && ok2 && mid != "" && strings.Trim(mid, "0123456789") == "" {
			Remove(filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
}

// Write implements io.Writer; the first error is kept and returned by Commit.
func (a *AtomicFile) Write(p []byte) (int, error) {
	if a.err != nil {
		return 0, a.err
	}
	if err := injectedFault(opWrite, a.tmp); err != nil {
		a.err = fmt.Errorf("workspace: write %s: %w", a.tmp, err)
		return 0, a.err
	}
	n, err := a.f.Write(p)
	a.n += int64(n)
	if err != nil {
		a.err = fmt.Errorf("workspace: write %s: %w", a.tmp, err)
	}
	return n, a.err
}

var _ io.Writer = (*AtomicFile)(nil)

// Commit checks the length, fsyncs, closes and renames the temporary file
// over the final path, then fsyncs the folder so the rename itself
// survives a power loss. On any error the temporary file is removed and
// the final path keeps its old content.
func (a *AtomicFile) Commit() error { return a.commit(true) }

func (a *AtomicFile) commit(syncDir bool) error {
	if a.err != nil {
		a.Abort()
		return a.err
	}
	if st, err := a.f.Stat(); err != nil || st.Size() != a.n {
		a.Abort()
		if err == nil {
			err = fmt.Errorf("size %d, wrote %d", st.Size(), a.n)
		}
		return fmt.Errorf("workspace: check %s: %w", a.tmp, err)
	}
	if err := syncFile(a.f); err != nil {
		a.Abort()
		return fmt.Errorf("workspace: fsync %s: %w", a.tmp, err)
	}
	if err := a.f.Close(); err != nil {
		Remove(a.tmp)
		return fmt.Errorf("workspace: close %s: %w", a.tmp, err)
	}
	if err := beforeRename(a.tmp, a.path); err != nil {
		Remove(a.tmp)
		return err
	}
	if err := Rename(a.tmp, a.path); err != nil {
		Remove(a.tmp)
		return fmt.Errorf("workspace: rename %s: %w", a.tmp, err)
	}
	if !syncDir {
		return nil
	}
	return SyncDir(filepath.Dir(a.path))
}

// Abort closes and removes the temporary file.
func (a *AtomicFile) Abort() {
	a.f.Close()
	Remove(a.tmp)
}

// beforeRename is a fault seam for crash tests: a test may set it to kill
// the process between the fsync of the temporary file and the rename.
var beforeRename = func(tmp, final string) error { return nil }

// SyncDir fsyncs a folder so that renames and creations inside it are
// durable. Windows cannot open folders for syncing; there it is a no-op.
func SyncDir(dir string) error {
	if err := injectedFault(opSync, dir); err != nil {
		return fmt.Errorf("workspace: fsync folder %s: %w", dir, err)
	}
	return syncDir(dir)
}

// AppendSync writes one line to f (opened for appending) and fsyncs, so
// that after a SIGKILL or a power loss every earlier line is intact and at
// worst the last line is cut. Used for the journal's rare records (出, 書,
// 終) and wherever one line must be durable before the next step.
func AppendSync(f *os.File, line []byte) error {
	if err := Append(f, line); err != nil {
		return err
	}
	return Sync(f)
}

// Append writes one line to f (opened for appending) in one write, without
// an fsync: the seed's "追記して Flush する". The line is in the operating
// system's hands, so a SIGKILL of the process keeps it; a power loss may
// lose it until the next Sync (the coordinator's group commit).
func Append(f *os.File, line []byte) error {
	if err := injectedFault(opAppend, f.Name()); err != nil {
		return fmt.Errorf("workspace: append %s: %w", f.Name(), err)
	}
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("workspace: append %s: %w", f.Name(), err)
	}
	return nil
}

// Sync fsyncs f, making every line appended before durable.
func Sync(f *os.File) error {
	if err := f.Sync(); err != nil {
		return fmt.Errorf("workspace: fsync %s: %w", f.Name(), err)
	}
	return nil
}
