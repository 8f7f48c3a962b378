package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// SettingsError is a settings.json that cannot be used. Error is the
// Japanese description shown to the user; Unwrap gives the English cause.
type SettingsError struct {
	Msg   string
	Cause error
}

func (e *SettingsError) Error() string { return e.Msg }
func (e *SettingsError) Unwrap() error { return e.Cause }

// What is wrong with a settings file (the 原因 of BrokenSettingsError).
const (
	msgSetSyntax   = "%d 行目 %d 文字目が JSON の書き方として正しくありません"
	msgSetCut      = "ファイルが途中で切れています（空か、JSON が閉じていません）"
	msgSetType     = "%s の値の種類が正しくありません"
	msgSetTrailing = "JSON のあとに余分な内容があります"
	msgSetNoPath   = "targetFolders の %d 番目にフォルダ（path）がありません"
	msgSetBadName  = "targetFolders の %d 番目のインデックス名「%s」は使えません"
	msgSetDupName  = "targetFolders の %d 番目のインデックス名「%s」がほかと同じです"
)

func settingsError(cause error, format string, a ...any) error {
	return &SettingsError{Msg: fmt.Sprintf(format, a...), Cause: cause}
}

// jsonError describes a decoding error of data in Japanese.
func jsonError(data []byte, err error) error {
	cause := fmt.Errorf("workspace: settings.json: %w", err)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineCol(data, syn.Offset)
		return settingsError(cause, msgSetSyntax, line, col)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "設定"
		}
		return settingsError(cause, msgSetType, field)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return settingsError(cause, msgSetCut)
	}
	return settingsError(cause, msgSetCut)
}

// lineCol turns a byte offset into a 1-based line and character column.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:max(off-1, 0)]
	line := bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, len([]rune(string(before[start:]))) + 1
}

// settingsCause is the Japanese text of a settings error.
func settingsCause(err error) string {
	var se *SettingsError
	if errors.As(err, &se) {
		return se.Msg
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// maxSalvageBytes bounds the bytes SalvageSettings looks at: a real
// settings file is a few KiB.
const maxSalvageBytes = 1 << 20

var (
	reWorkers = regexp.MustCompile(`"workers"\s*:\s*(\d{1,4})\b`)
	reTimeout = regexp.MustCompile(`"fileTimeoutMinutes"\s*:\s*(\d{1,6})\b`)
)

// SalvageSettings reads what it still can from a settings file that does
// not parse (a hand edit with a missing comma or quote, a file cut short):
// every complete object with a non-empty "path" string and a "name" that
// passes TestStoredIndexName is a root, with "enabled" when it reads. Roots
// are kept in file order, the first of each name and of each path winning.
// A root without a usable name is left out: which index is its own is not
// known here, and a wrong guess would give one root another's index
// (fumibako folder restore matches it with the ingest list). The options
// are read by their keys.
func SalvageSettings(data []byte) *Settings {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(data) > maxSalvageBytes {
		data = data[:maxSalvageBytes]
	}
	s := &Settings{}
	var found []Root
	paths := map[string]bool{}
	for i := 0; i < len(data); i++ {
		if data[i] != '{' {
			continue
		}
		var obj map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(data[i:]))
		if dec.Decode(&obj) != nil {
			continue
		}
		if _, ok := obj["subfolders"]; ok {
			continue // a searchExcludes entry, not a root
		}
		var r Root
		if json.Unmarshal(obj["path"], &r.Path) != nil || strings.TrimSpace(r.Path) == "" {
			continue
		}
		json.Unmarshal(obj["name"], &r.Name)
		var on bool
		if obj["enabled"] != nil && json.Unmarshal(obj["enabled"], &on) == nil {
			r.Enabled = &on
		}
		if pk := FoldKey(filepath.Clean(r.Path)); !paths[pk] {
			paths[pk] = true
			found = append(found, r)
		}
	}
	names := map[string]bool{}
	for _, r := range found {
		if r.Name == "" || names[FoldKey(r.Name)] || !TestStoredIndexName(r.Name) {
			continue // its index is not known here: folder restore offers it
		}
		names[FoldKey(r.Name)] = true
		s.Roots = append(s.Roots, r)
	}
	if m := reWorkers.FindSubmatch(data); m != nil {
		s.Workers, _ = strconv.Atoi(string(m[1]))
	}
	if m := reTimeout.FindSubmatch(data); m != nil {
		s.FileTimeoutMinutes, _ = strconv.Atoi(string(m[1]))
	}
	return s
}
