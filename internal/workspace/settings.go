package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Root is one crawl root (クロール対象フォルダ). Name is the index name, the
// folder under work/store/content; it is kept apart from Path so that a
// moved folder keeps its index (reference/indexing.md §3.2).
type Root struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Enabled *bool  `json:"enabled,omitempty"` // missing means true
	// OCRImages: image files (.tif .tiff .png .jpg .jpeg .bmp) under this
	// root are read by OCR (issue 29); off by default, because photo
	// folders are large.
	OCRImages bool `json:"ocrImages,omitempty"`
	// HiddenSheets: hidden sheets of the root's workbooks are indexed,
	// labelled （非表示） (issue 31); off by default, as tebunko skips
	// them. Switching it reads the root's workbooks again on the next run.
	HiddenSheets bool `json:"hiddenSheets,omitempty"`
}

// IndexSource is the source folder of an index that is not a crawl root:
// one received through import, or one whose files were found elsewhere
// (reference/search.md §9, indexSources {name, path}; issue 30).
type IndexSource struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Confirmed: the user confirmed or picked this folder; files of a
	// received index open only after that (reference/search.md §9).
	Confirmed bool `json:"confirmed,omitempty"`
}

// IsEnabled reports whether the root is crawled; a missing flag means true.
func (r Root) IsEnabled() bool { return r.Enabled == nil || *r.Enabled }

// Settings is settings.json: JSON, UTF-8 without BOM.
//
//	{
//	  "targetFolders": [{"name": "営業", "path": "/srv/share/営業", "enabled": true}],
//	  "workers": 0,
//	  "fileTimeoutMinutes": 0,
//	  "searchExcludes": [{"path": "営業\\2019", "subfolders": true}],
//	  "search": {"kinds": ["excel"], "case": true, "shapes": false},
//	  "openMode": "readOnly"
//	}
//
// The keys a user sets by name (fumibako settings, the 設定 screen) are
// the table SettingKeys (settingkeys.go).
//
// Zero options mean the defaults (workers = number of CPUs, 10 minutes).
type Settings struct {
	Roots              []Root `json:"targetFolders"`
	Workers            int    `json:"workers,omitempty"`
	FileTimeoutMinutes int    `json:"fileTimeoutMinutes,omitempty"`
	// AutoUpdate (自動で更新する): serve runs the watcher in the
	// background. Off by default.
	AutoUpdate bool `json:"autoUpdate,omitempty"`
	// WatchFullRescanHours is how often the watcher rescans every root in
	// full (0 = every 24 hours, -1 = only at start).
	WatchFullRescanHours int `json:"watchFullRescanHours,omitempty"`
	// Removed are roots the user removed (fumibako folder remove, the web
	// UI's confirmed 削除): the only indexes an indexing run deletes. An
	// index whose root is merely missing from the settings (a settings file
	// lost or broken) is kept (issue 15). An entry whose name is a root
	// again (re-added) is void.
	Removed []Root `json:"removedFolders,omitempty"`
	// IndexSources are the source folders of received indexes and of
	// indexes re-pointed at a folder the files were found in (issue 30).
	IndexSources []IndexSource `json:"indexSources,omitempty"`
	// TesseractPath is the OCR engine's program when it is neither in
	// PATH nor where its installer puts it (issue 29); empty: looked up.
	TesseractPath string `json:"tesseractPath,omitempty"`
	// OCRSecondsPerPage is the per-file deadline's allowance for each
	// page read by OCR (0 = 60 s; issue 29).
	OCRSecondsPerPage int `json:"ocrSecondsPerPage,omitempty"`
	// Search are the search page's options (search, settingkeys.go), read
	// tolerantly like SearchExcludes.
	Search SearchOptions `json:"-"`
	// SearchExcludes are the unchecked nodes of the web UI's search-target
	// tree (searchExcludes, excludes.go), shared by every page open on
	// the workspace.
	SearchExcludes []SearchExclude `json:"-"`
	// OpenMode is how hits open (openMode: normal, readOnly, new;
	// reference/gui.md §4.8, package desktop). Read tolerantly
	// (readOpenMode): a value of another type or an unknown one is left
	// out with a notice and files open as usual.
	OpenMode string `json:"-"`
	// Ignored says, in Japanese, what reading the file left out (a
	// malformed searchExcludes), for a notice; empty when nothing was.
	Ignored string `json:"-"`
}

// MsgSettingsBroken is logged when settings.json could not be read and was
// moved aside (reference/indexing.md §17.1).
const MsgSettingsBroken = "設定ファイルが壊れていたため、既定の設定で起動しました。"

// Messages of a broken settings file (issue 15: no index is lost).
const (
	msgSettingsRecovered = "設定ファイルが壊れていたため、読み取れたインデックスの登録 %d 件（%s）を戻して起動しました。"
	msgSettingsMoved     = "（壊れていたファイルは %s に移しました。原因: %s）"
	msgSettingsKept      = "インデックスは削除していません。fumibako folder restore で、壊れていたファイルと取り込み一覧からインデックスの登録を戻せます。"
)

// BrokenSettingsError reports that settings.json was unreadable and has been
// moved to MovedTo. The roots that could still be read from it (Recovered)
// are in use and saved; with none, the defaults are. It is a notice, not a
// failure: LoadSettings returns it together with the settings.
type BrokenSettingsError struct {
	MovedTo   string
	Cause     error
	Recovered []Root
}

func (e *BrokenSettingsError) Error() string {
	head := MsgSettingsBroken
	if len(e.Recovered) > 0 {
		names := make([]string, len(e.Recovered))
		for i, r := range e.Recovered {
			names[i] = r.Name
		}
		head = fmt.Sprintf(msgSettingsRecovered, len(e.Recovered), strings.Join(names, "、"))
	}
	return head + fmt.Sprintf(msgSettingsMoved, e.MovedTo, settingsCause(e.Cause)) + msgSettingsKept
}
func (e *BrokenSettingsError) Unwrap() error { return e.Cause }

// now is a seam for tests that name the broken-settings file.
var now = time.Now

// LoadSettings reads settings.json. A missing file gives empty settings. A
// file that does not parse is renamed to
// settings.json.broken-<yyyyMMdd-HHmmss>[-n]; the roots that can still be
// read from it (SalvageSettings) are saved as the new settings.json and
// returned, or the defaults when there are none, together with a
// *BrokenSettingsError describing what happened.
//
// Writers replace the file by a rename (WriteFileAtomicUnique), so a
// reader sees the old file or the new one, never part of one; on Windows
// it reads under the settings lock shared (settings_lock.go). Before it
// moves a file aside, LoadSettings takes the settings lock and reads the
// file again: only a file that is still unreadable with no writer at work
// (a hand edit, a disk fault) is moved, never one that a writer has just
// replaced.
func (w *Workspace) LoadSettings() (*Settings, error) {
	data, err := w.readSettings()
	if errors.Is(err, os.ErrNotExist) {
		return &Settings{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: read %s: %w", w.SettingsPath(), err)
	}
	if s, perr := ParseSettings(data); perr == nil {
		return s, nil
	}
	l, err := w.lockSettings()
	if err != nil {
		return nil, err
	}
	defer l.Release()
	s, broken, err := w.loadLocked()
	if err != nil {
		return nil, err
	}
	if broken != nil {
		return s, broken
	}
	return s, nil
}

// readSettings reads settings.json under the settings lock for readers
// (on Windows, where a reader's open file makes a writer's rename fail).
func (w *Workspace) readSettings() ([]byte, error) {
	l, err := w.rlockSettings()
	if err != nil {
		return nil, err
	}
	defer l.Release()
	return readShared(w.SettingsPath())
}

// loadLocked is LoadSettings for a caller that holds the settings lock:
// the file is read once, and moved aside and salvaged if it does not
// parse.
func (w *Workspace) loadLocked() (*Settings, *BrokenSettingsError, error) {
	data, err := readShared(w.SettingsPath())
	if errors.Is(err, os.ErrNotExist) {
		return &Settings{}, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("workspace: read %s: %w", w.SettingsPath(), err)
	}
	s, perr := ParseSettings(data)
	if perr == nil {
		return s, nil, nil
	}
	dst, err := MoveAside(w.SettingsPath())
	if errors.Is(err, os.ErrNotExist) {
		return &Settings{}, nil, nil // removed by hand meanwhile
	}
	if err != nil {
		return nil, nil, err
	}
	rec := SalvageSettings(data)
	if len(rec.Roots) > 0 {
		if err := w.saveLocked(rec); err != nil {
			return nil, nil, err
		}
	}
	return rec, &BrokenSettingsError{MovedTo: dst, Cause: perr, Recovered: rec.Roots}, nil
}

// MoveAside renames a file that cannot be read to
// <path>.broken-<yyyyMMdd-HHmmss>[-n] (reference/indexing.md §17.1), so
// that nothing is lost and a fresh file can take its place, and returns the
// new name.
func MoveAside(path string) (string, error) {
	base := path + ".broken-" + now().Format("20060102-150405")
	dst := base
	for n := 2; ; n++ {
		if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
			break
		}
		dst = fmt.Sprintf("%s-%d", base, n)
	}
	if err := Rename(path, dst); err != nil {
		return "", fmt.Errorf("workspace: move %s aside: %w", path, err)
	}
	return dst, nil
}

// NewestMovedAside returns the newest file MoveAside made of path (by
// modification time; of two alike, the later name), "" when there is none:
// what `folder restore` offers back from a settings.json moved aside.
func NewestMovedAside(path string) string {
	matches, _ := filepath.Glob(path + ".broken-*")
	newest, at := "", int64(0)
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && (newest == "" || st.ModTime().UnixNano() >= at) {
			newest, at = m, st.ModTime().UnixNano()
		}
	}
	return newest
}

// ParseSettings decodes settings.json bytes and checks every root: a root
// needs a path, and its name must pass TestStoredIndexName and be unique.
// An error is a *SettingsError. Removed entries naming a root are dropped.
func ParseSettings(data []byte) (*Settings, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var s Settings
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		return nil, jsonError(data, err)
	}
	if dec.More() {
		return nil, settingsError(errors.New("workspace: settings.json: data after the JSON object"), msgSetTrailing)
	}
	seen := map[string]bool{}
	for i, r := range s.Roots {
		if r.Path == "" {
			return nil, settingsError(fmt.Errorf("workspace: settings.json: targetFolders[%d]: empty path", i), msgSetNoPath, i+1)
		}
		if r.Name != "" && !TestStoredIndexName(r.Name) {
			return nil, settingsError(fmt.Errorf("workspace: settings.json: targetFolders[%d]: illegal index name %q", i, r.Name), msgSetBadName, i+1, r.Name)
		}
		k := FoldKey(r.Name)
		if r.Name != "" && seen[k] {
			return nil, settingsError(fmt.Errorf("workspace: settings.json: targetFolders[%d]: duplicate index name %q", i, r.Name), msgSetDupName, i+1, r.Name)
		}
		seen[k] = true
	}
	s.Removed = slices.DeleteFunc(s.Removed, func(r Root) bool { _, _, ok := s.Root(r.Name); return ok || r.Name == "" })
	s.readExcludes(data)
	s.readOpenMode(data)
	s.readSearch(data)
	return &s, nil
}

// SaveSettings replaces settings.json with s under the settings lock. An
// edit of the current settings goes through UpdateSettings instead, which
// reads them under the same lock: SaveSettings would overwrite what
// another process saved since s was read.
func (w *Workspace) SaveSettings(s *Settings) error {
	l, err := w.lockSettings()
	if err != nil {
		return err
	}
	defer l.Release()
	return w.saveLocked(s)
}

// saveLocked writes settings.json (indented, trailing newline) through a
// temporary file of its own (WriteFileAtomicUnique), for a caller that
// holds the settings lock, and removes the temporary files that killed
// writers left.
func (w *Workspace) saveLocked(s *Settings) error {
	if s.Roots == nil {
		s.Roots = []Root{}
	}
	f := settingsFile{Settings: s, SearchExcludes: s.SearchExcludes, OpenMode: s.OpenMode}
	if !reflect.ValueOf(s.Search).IsZero() {
		f.Search = &s.Search
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("workspace: encode settings: %w", err)
	}
	RemoveStaleTemps(w.SettingsPath())
	return WriteFileAtomicUnique(w.SettingsPath(), append(data, '\n'))
}

// Root returns the root named name (case-insensitive) and its position.
func (s *Settings) Root(name string) (Root, int, bool) {
	for i, r := range s.Roots {
		if FoldKey(r.Name) == FoldKey(name) {
			return r, i, true
		}
	}
	return Root{}, -1, false
}
