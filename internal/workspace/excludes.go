package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// SearchExclude is one unchecked node of the web UI's search-target tree
// (reference/gui.md §4.2, search.md §4 searchExcludes): Path is an index
// name or `<index>\<folder>…`; Subfolders false leaves out only the
// folder's own files (（このフォルダ直下のファイル）), true the whole folder.
// Only unchecked nodes are kept, so an index added later starts checked.
type SearchExclude struct {
	Path       string `json:"path"`
	Subfolders bool   `json:"subfolders"`
}

// msgExcludesIgnored is the notice when searchExcludes could not be read
// (the settings-recovery messages' style; the rest of the file is used).
const msgExcludesIgnored = "設定ファイルの検索対象（searchExcludes）の %d 件を読み取れなかったため、無視しました（その部分はチェックの付いた状態になります）。"

// parseExcludes reads the searchExcludes value of settings.json
// tolerantly: what is not a list, and entries that are not objects with a
// non-empty path string, are left out and counted (a missing subfolders,
// or one that is no boolean, means true: the whole folder). Duplicates by
// path and subfolders, ignoring case, are removed.
func parseExcludes(raw json.RawMessage) ([]SearchExclude, int) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, 0
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, 1
	}
	var out []SearchExclude
	bad := 0
	seen := map[string]bool{}
	for _, it := range items {
		var obj map[string]json.RawMessage
		var e SearchExclude
		if json.Unmarshal(it, &obj) != nil || json.Unmarshal(obj["path"], &e.Path) != nil || strings.TrimSpace(e.Path) == "" {
			bad++
			continue
		}
		e.Subfolders = true
		var sub bool
		if json.Unmarshal(obj["subfolders"], &sub) == nil {
			e.Subfolders = sub
		}
		k := fmt.Sprint(FoldKey(e.Path), e.Subfolders)
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out, bad
}

// readExcludes sets s.SearchExcludes from the searchExcludes key of data
// (parseExcludes), with s.Ignored saying what was left out.
func (s *Settings) readExcludes(data []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return
	}
	list, bad := parseExcludes(top["searchExcludes"])
	s.SearchExcludes = list
	if bad > 0 {
		s.Ignored = fmt.Sprintf(msgExcludesIgnored, bad)
	}
}

// dropExcludes drops the exclusions of the index named name and its
// folders: a renamed or removed index (reference/gui.md §2, renameIndex).
func (s *Settings) dropExcludes(name string) {
	k := FoldKey(name)
	s.SearchExcludes = slices.DeleteFunc(s.SearchExcludes, func(e SearchExclude) bool {
		p := FoldKey(e.Path)
		return p == k || strings.HasPrefix(p, k+`\`)
	})
}

// settingsFile is the JSON form of Settings: SearchExcludes and Search
// are written here and read by readExcludes and readSearch, so that a
// malformed value never makes the whole file unreadable.
type settingsFile struct {
	*Settings
	SearchExcludes []SearchExclude `json:"searchExcludes,omitempty"`
	OpenMode       string          `json:"openMode,omitempty"`
	Search         *SearchOptions  `json:"search,omitempty"`
}
