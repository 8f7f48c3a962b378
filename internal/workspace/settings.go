package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// Root is one crawl root (クロール対象フォルダ). Name is the index name, the
// folder under work/store/content; it is kept apart from Path so that a
// moved folder keeps its index (reference/indexing.md §3.2).
type Root struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Enabled *bool  `json:"enabled,omitempty"` // missing means true
}

// IsEnabled reports whether the root is crawled; a missing flag means true.
func (r Root) IsEnabled() bool { return r.Enabled == nil || *r.Enabled }

// Settings is settings.json: JSON, UTF-8 without BOM.
//
//	{
//	  "targetFolders": [{"name": "営業", "path": "/srv/share/営業", "enabled": true}],
//	  "workers": 0,
//	  "fileTimeoutMinutes": 0
//	}
//
// Zero options mean the defaults (workers = number of CPUs, 10 minutes).
type Settings struct {
	Roots              []Root `json:"targetFolders"`
	Workers            int    `json:"workers,omitempty"`
	FileTimeoutMinutes int    `json:"fileTimeoutMinutes,omitempty"`
}

// MsgSettingsBroken is logged when settings.json could not be read and was
// moved aside (reference/indexing.md §17.1).
const MsgSettingsBroken = "設定ファイルが壊れていたため、既定の設定で起動しました。"

// BrokenSettingsError reports that settings.json was unreadable and has been
// moved to MovedTo; the defaults are in use. It is a notice, not a failure:
// LoadSettings returns it together with default settings.
type BrokenSettingsError struct {
	MovedTo string
	Cause   error
}

func (e *BrokenSettingsError) Error() string {
	return MsgSettingsBroken + "（壊れていたファイルは " + e.MovedTo + " に移しました。原因: " + e.Cause.Error() + "）"
}
func (e *BrokenSettingsError) Unwrap() error { return e.Cause }

// now is a seam for tests that name the broken-settings file.
var now = time.Now

// LoadSettings reads settings.json. A missing file gives empty settings. A
// file that does not parse is renamed to
// settings.json.broken-<yyyyMMdd-HHmmss>[-n] and the defaults are returned
// together with a *BrokenSettingsError describing what happened.
func (w *Workspace) LoadSettings() (*Settings, error) {
	data, err := os.ReadFile(w.SettingsPath())
	if errors.Is(err, os.ErrNotExist) {
		return &Settings{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: read %s: %w", w.SettingsPath(), err)
	}
	s, perr := ParseSettings(data)
	if perr == nil {
		return s, nil
	}
	dst, err := MoveAside(w.SettingsPath())
	if err != nil {
		return nil, err
	}
	return &Settings{}, &BrokenSettingsError{MovedTo: dst, Cause: perr}
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
	if err := os.Rename(path, dst); err != nil {
		return "", fmt.Errorf("workspace: move %s aside: %w", path, err)
	}
	return dst, nil
}

// ParseSettings decodes settings.json bytes and checks every root: a root
// needs a path, and its name must pass TestStoredIndexName and be unique.
func ParseSettings(data []byte) (*Settings, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var s Settings
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("workspace: settings.json: %w", err)
	}
	if dec.More() {
		return nil, errors.New("workspace: settings.json: data after the JSON object")
	}
	seen := map[string]bool{}
	for i, r := range s.Roots {
		if r.Path == "" {
			return nil, fmt.Errorf("workspace: settings.json: targetFolders[%d]: empty path", i)
		}
		if r.Name != "" && !TestStoredIndexName(r.Name) {
			return nil, fmt.Errorf("workspace: settings.json: targetFolders[%d]: illegal index name %q", i, r.Name)
		}
		k := FoldKey(r.Name)
		if r.Name != "" && seen[k] {
			return nil, fmt.Errorf("workspace: settings.json: targetFolders[%d]: duplicate index name %q", i, r.Name)
		}
		seen[k] = true
	}
	return &s, nil
}

// SaveSettings writes settings.json atomically (indented, trailing newline).
func (w *Workspace) SaveSettings(s *Settings) error {
	if s.Roots == nil {
		s.Roots = []Root{}
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("workspace: encode settings: %w", err)
	}
	return WriteFileAtomic(w.SettingsPath(), append(data, '\n'))
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
