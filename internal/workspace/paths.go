package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// EnvVar names the environment variable that selects the workspace when no
// --workspace flag is given.
const EnvVar = "FUMIBAKO_WORKSPACE"

// Workspace is an opened workspace folder. Its methods return absolute paths
// of the files DESIGN.md places inside it.
type Workspace struct {
	Root string // absolute, cleaned
}

// Resolve picks the workspace folder: flag, else $FUMIBAKO_WORKSPACE, else
// the per-user data folder ($XDG_DATA_HOME/fumibako, ~/.local/share/fumibako,
// %LOCALAPPDATA%\fumibako, ~/Library/Application Support/fumibako).
func Resolve(flag string) (string, error) {
	dir := flag
	if dir == "" {
		dir = os.Getenv(EnvVar)
	}
	if dir == "" {
		d, err := defaultDir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("workspace: resolve %s: %w", dir, err)
	}
	return filepath.Clean(abs), nil
}

func defaultDir() (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "fumibako"), nil
		}
	case "darwin":
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, "Library", "Application Support", "fumibako"), nil
		}
	default:
		if d := os.Getenv("XDG_DATA_HOME"); d != "" {
			return filepath.Join(d, "fumibako"), nil
		}
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, ".local", "share", "fumibako"), nil
		}
	}
	return "", errors.New("workspace: no per-user data folder; use --workspace or $" + EnvVar)
}

// Open returns the workspace at dir, creating the folder and work/store when
// they do not exist yet.
func Open(dir string) (*Workspace, error) {
	w := &Workspace{Root: dir}
	for _, d := range []string{w.Root, w.Store(), w.JournalDir(), w.ContentRoot(), w.TmpRoot()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("workspace: create %s: %w", d, err)
		}
	}
	return w, nil
}

// SettingsPath is <workspace>/settings.json.
func (w *Workspace) SettingsPath() string { return filepath.Join(w.Root, "settings.json") }

// Work is <workspace>/work, the parent of everything but the settings.
func (w *Workspace) Work() string { return filepath.Join(w.Root, "work") }

// Store is work/store.
func (w *Workspace) Store() string { return filepath.Join(w.Work(), "store") }

// IngestList is work/store/ingest_status.tsv.
func (w *Workspace) IngestList() string { return filepath.Join(w.Store(), "ingest_status.tsv") }

// JournalDir is work/store/journal.
func (w *Workspace) JournalDir() string { return filepath.Join(w.Store(), "journal") }

// Journal is work/store/journal/ingest.tsv.
func (w *Workspace) Journal() string { return filepath.Join(w.JournalDir(), "ingest.tsv") }

// LegacyIngesting is work/ingesting.txt, the in-flight file of earlier
// versions, read once (seed).
func (w *Workspace) LegacyIngesting() string { return filepath.Join(w.Work(), "ingesting.txt") }

// PendingRemove is work/store/pending_remove.tsv.
func (w *Workspace) PendingRemove() string { return filepath.Join(w.Store(), "pending_remove.tsv") }

// BatchDir is work/store/batch, the runs' batch files of small files'
// places (package content, batch.go; issue 35).
func (w *Workspace) BatchDir() string { return filepath.Join(w.Store(), "batch") }

// ContentRoot is work/store/content.
func (w *Workspace) ContentRoot() string { return filepath.Join(w.Store(), "content") }

// TmpRoot is work/tmp, the parent of every process's scratch.
func (w *Workspace) TmpRoot() string { return filepath.Join(w.Work(), "tmp") }

// Log is work/indexing_log.txt.
func (w *Workspace) Log() string { return filepath.Join(w.Work(), "indexing_log.txt") }

// LockPath is work/lock.
func (w *Workspace) LockPath() string { return filepath.Join(w.Work(), "lock") }

// SettingsLockPath is work/settings.lock, taken by writers of
// settings.json (settings_lock.go), apart from the indexing lock.
func (w *Workspace) SettingsLockPath() string { return filepath.Join(w.Work(), "settings.lock") }

// WatchState is work/watch.json, the running watcher's state (package
// watch), which other processes read.
func (w *Workspace) WatchState() string { return filepath.Join(w.Work(), "watch.json") }

// ServeState is work/serve.json, the running web server's address (package
// web, instance.go): a second `fumibako serve` opens that page instead of
// starting another server on the same workspace (issue 32).
func (w *Workspace) ServeState() string { return filepath.Join(w.Work(), "serve.json") }

// RunStats is work/store/run_stats.json: per-index numbers of the last
// run that the ingest list does not hold (package indexer).
func (w *Workspace) RunStats() string { return filepath.Join(w.Store(), "run_stats.json") }

// IsWorkspace reports whether dir looks like a workspace: it holds
// work/store/ingest_status.tsv, or an ingest_status.tsv directly (a tebunko
// workspace, reference/indexing.md §3.3).
func IsWorkspace(dir string) bool {
	for _, p := range []string{
		filepath.Join(dir, "work", "store", "ingest_status.tsv"),
		filepath.Join(dir, "ingest_status.tsv"),
		filepath.Join(dir, "store", "ingest_status.tsv"),
	} {
		if _, err := os.Lstat(p); err == nil {
			return true
		}
	}
	return false
}

// OCRCache is work/ocr/pages, the OCR page cache (issue 29): one file per
// page image ever recognized, named by the page's key (OCRCacheEntry).
// The coordinator writes it, workers only read it.
func (w *Workspace) OCRCache() string { return filepath.Join(w.Work(), "ocr", "pages") }

// OCRCacheEntry is the cache file of a page key under the cache folder
// dir: <dir>/<first two characters of key>/<key>.txt, so that no folder
// holds more than a few thousand entries. The key must be valid
// (ValidOCRKey).
func OCRCacheEntry(dir, key string) string {
	return filepath.Join(dir, key[:2], key+".txt")
}

// ValidOCRKey reports whether key may name a cache entry: 16 to 128
// lower-case letters and digits (ocr.Key is a hex hash), so that a key
// can never leave the cache folder or differ from another only in case.
func ValidOCRKey(key string) bool {
	if len(key) < 16 || len(key) > 128 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// OCRKeyLists is work/ocr/files: per source file that used OCR, the keys
// of its pages (package ocrcache), which keep their cache entries.
func (w *Workspace) OCRKeyLists() string { return filepath.Join(w.Work(), "ocr", "files") }

// OCRSwept is work/ocr/swept, whose modification time is when the OCR
// page cache was last walked for clean-up (an empty file).
func (w *Workspace) OCRSwept() string { return filepath.Join(w.Work(), "ocr", "swept") }

// OCRWaiting is work/store/ocr_waiting.tsv, the files ingested without
// their OCR pages for want of an engine (issue 29).
func (w *Workspace) OCRWaiting() string { return filepath.Join(w.Store(), "ocr_waiting.tsv") }
