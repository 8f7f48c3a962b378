package content

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"unsafe"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// ManifestName is the file that marks a complete per-file folder and lists
// its place files in document order.
const ManifestName = ".places"

var bom = []byte{0xEF, 0xBB, 0xBF}

// Encode returns the bytes of one place TSV: BOM, lines joined by CRLF,
// trailing empty lines removed. Lines must not contain CR or LF.
func Encode(lines []string) []byte {
	var b bytes.Buffer
	writeTSV(&b, trimTrailingEmpty(lines))
	return b.Bytes()
}

// writeTSV writes the BOM and each line followed by CRLF.
func writeTSV(w interface{ WriteString(string) (int, error) }, lines []string) {
	w.WriteString(string(bom))
	for _, l := range lines {
		w.WriteString(l)
		w.WriteString("\r\n")
	}
}

// trimTrailingEmpty drops the blank lines at the end.
func trimTrailingEmpty(lines []string) []string {
	n := len(lines)
	for n > 0 && strings.TrimSpace(lines[n-1]) == "" {
		n--
	}
	return lines[:n]
}

// Decode splits the bytes of a place TSV into lines (BOM optional, CRLF or
// LF).
func Decode(data []byte) []string {
	return decodeOwned(bytes.Clone(data))
}

// decodeOwned is Decode for data nobody else holds or changes: the lines
// are substrings of data itself, not of a copy (a place TSV can be tens of
// megabytes, read by the coordinator at every publish).
func decodeOwned(data []byte) []string {
	data = bytes.TrimPrefix(data, bom)
	if len(data) == 0 {
		return nil
	}
	s := strings.TrimSuffix(unsafe.String(unsafe.SliceData(data), len(data)), "\n")
	s = strings.TrimSuffix(s, "\r")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// WriteFolder writes the places of one source file into dir (which must
// not exist yet, or be empty): one TSV per place with text, then .places.
// It returns the number of TSVs written (the ingest list's TSV数). Each
// file is fsynced so that a swap after a crash never exposes empty files.
func WriteFolder(dir string, places []extract.Place) (int, error) {
	if err := workspace.MkdirAll(dir); err != nil {
		return 0, fmt.Errorf("content: create %s: %w", dir, err)
	}
	n, _, err := writeFolder(dir, places, nil)
	return n, err
}

// writeFolder is WriteFolder in an existing dir, with src, when set, as
// the source line of .places; it also returns the names of the files it
// wrote.
func writeFolder(dir string, places []extract.Place, src *Source) (int, map[string]bool, error) {
	var manifest bytes.Buffer
	seen := map[string]bool{}
	written := map[string]bool{ManifestName: true}
	count := 0
	for _, p := range places {
		lines := trimTrailingEmpty(cleanLines(p.Lines))
		if len(lines) == 0 {
			continue
		}
		name, err := FileName(p.Name)
		if err != nil {
			return 0, nil, err
		}
		if seen[strings.ToLower(name)] {
			return 0, nil, fmt.Errorf("content: two places named %q in one file", p.Name)
		}
		seen[strings.ToLower(name)] = true
		// Streamed as Encode would write it: a 100 MB sheet would
		// otherwise be held twice, as lines and as bytes.
		if err := workspace.WriteNewFile(filepath.Join(dir, name), func(w *bufio.Writer) { writeTSV(w, lines) }); err != nil {
			return 0, nil, err
		}
		written[name] = true
		manifest.WriteString(name + "\n")
		count++
	}
	if src != nil {
		manifest.WriteString(sourceLine(*src))
	}
	if err := workspace.WriteNewFile(filepath.Join(dir, ManifestName), func(w *bufio.Writer) { w.Write(manifest.Bytes()) }); err != nil {
		return 0, nil, err
	}
	return count, written, nil
}

// cleanLines makes sure no line breaks the line structure of the TSV.
func cleanLines(lines []string) []string {
	out := lines
	for i, l := range lines {
		if strings.IndexByte(l, '\n') >= 0 || strings.IndexByte(l, '\r') >= 0 {
			if &out[0] == &lines[0] {
				out = append([]string(nil), lines...)
			}
			out[i] = strings.NewReplacer("\r\n", "\u2028", "\r", "\u2028", "\n", "\u2028").Replace(l)
		}
	}
	return out
}

// IsFileFolder reports whether dir is a complete per-file folder.
func IsFileFolder(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, ManifestName))
	return err == nil && st.Mode().IsRegular()
}

// CountTSV returns how many place TSVs a per-file folder lists and whether
// every one of them is present and non-empty (testIndexComplete's check
// of the per-file folder).
func CountTSV(dir string) (n int, complete bool) {
	m, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return 0, false
	}
	complete = true
	for _, name := range strings.Split(string(m), "\n") {
		if name == "" || strings.HasPrefix(name, sourcePrefix) {
			continue
		}
		n++
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() <= int64(len(bom)) {
			complete = false
		}
	}
	return n, complete
}

// Swap puts the staged per-file folder in place of final atomically as far
// as the file system allows (every step through the workspace's retrying
// file operations, for Windows): the old folder is first renamed to a hidden
// leftover name (.old-<name>-<pid>-<n>), the staged one renamed to final,
// then the leftover removed. A crash leaves the old set, no set, or the new
// set, never a mix; leftovers are removed by RemoveLeftovers.
// An error means the new set may not be in place (or not durably).
func Swap(staged, final string) error { return swap(staged, final, true) }

// SwapUnsynced is Swap without the fsync of final's parent folder: the new
// set is in place for every reader, and durable once the caller has synced
// filepath.Dir(final) (workspace.SyncDir), which it must do before anything
// that claims the set (the ingest list's 済 row) can become durable. The
// coordinator's group commit syncs the folders of many swaps at once.
func SwapUnsynced(staged, final string) error { return swap(staged, final, false) }

func swap(staged, final string, sync bool) error {
	parent := filepath.Dir(final)
	if runtime.GOOS != "windows" {
		// Most swaps put a new file's folder into a folder that exists:
		// one rename, without the stat of final and of its folder
		// (issue 35). rename(2) refuses a final that is a file or a
		// folder with files, and then the swap below moves it aside; it
		// replaces an empty one, which holds nothing to keep. (Windows
		// cannot rename over a folder and retries sharing errors: the
		// swap below, always.)
		err := workspace.RenameOnce(staged, final)
		if err == nil {
			if sync {
				return workspace.SyncDir(parent)
			}
			return nil
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, os.ErrExist) && !errors.Is(err, syscall.ENOTDIR) && !errors.Is(err, syscall.EISDIR) {
			return fmt.Errorf("content: move %s to %s: %w", staged, final, err)
		}
	}
	if err := workspace.MkdirAll(parent); err != nil {
		return fmt.Errorf("content: create %s: %w", parent, err)
	}
	var old string
	if _, err := os.Lstat(final); err == nil {
		old = asideName(final)
		if err := workspace.Rename(final, old); err != nil {
			return fmt.Errorf("content: move %s aside: %w", final, err)
		}
	}
	if err := workspace.Rename(staged, final); err != nil {
		if old != "" {
			workspace.Rename(old, final)
		}
		return fmt.Errorf("content: move %s to %s: %w", staged, final, err)
	}
	if sync {
		if err := workspace.SyncDir(parent); err != nil {
			return err
		}
	}
	if old != "" {
		// The new set is in place; a leftover that cannot go now (a file
		// of it held open on Windows) goes with RemoveLeftovers at the next
		// start.
		workspace.RemoveAll(old)
	}
	return nil
}

// asideName is a free leftover name beside path (.old-<name>-<pid>-<n>),
// which RemoveLeftovers removes after a crash.
func asideName(path string) string {
	for n := 0; ; n++ {
		old := filepath.Join(filepath.Dir(path), fmt.Sprintf(".old-%s-%d-%d", filepath.Base(path), os.Getpid(), n))
		if _, err := os.Lstat(old); errors.Is(err, os.ErrNotExist) {
			return old
		}
	}
}

// RemoveFileFolder deletes a per-file folder (a source file that vanished,
// or one whose folder has been published). The folder is first renamed to
// a leftover name, so that it disappears whole: a kill in the middle of
// deleting its files leaves a .old-* folder that RemoveLeftovers removes,
// never a per-file folder missing some of its TSVs, which the next publish
// would take for a damaged new version of the file and drop from the body
// index (issue 21's kill tests found this). Where the rename is refused (a
// file of it held open on Windows), the folder is deleted in place.
func RemoveFileFolder(dir string) error {
	aside := asideName(dir)
	if err := workspace.Rename(dir, aside); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		aside = dir
	}
	if err := workspace.RemoveAll(aside); err != nil {
		return fmt.Errorf("content: remove %s: %w", dir, err)
	}
	return nil
}

// DeferredPrefix starts the name of a file that could not be deleted
// because a reader had it mapped (Windows): package bodyindex renames it so,
// and RemoveLeftovers removes it.
const DeferredPrefix = ".delete-"

// RemoveLeftovers deletes .old-* folders under root left by a crash in the
// middle of Swap, and the files left to delete (DeferredPrefix) that are
// no longer mapped. It reports how many .old-* folders it removed.
func RemoveLeftovers(root string) (int, error) {
	n := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			if path == root && errors.Is(err, os.ErrNotExist) {
				return filepath.SkipAll
			}
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".old-") {
			if err := workspace.RemoveAll(path); err != nil {
				return err
			}
			n++
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), DeferredPrefix) {
			os.Remove(path) // still mapped somewhere: the next start
		}
		return nil
	})
	return n, err
}

// FindFileFolders lists the per-file folders under root (absolute paths),
// for publishing what a crash left behind when the journal cannot say
// (findIndexFoldersWithBooks).
func FindFileFolders(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			if path == root && errors.Is(err, os.ErrNotExist) {
				return filepath.SkipAll
			}
			return err
		}
		if d.IsDir() && path != root && IsFileFolder(path) {
			out = append(out, path)
			return filepath.SkipDir
		}
		return nil
	})
	return out, err
}
