package workspace

import (
	"encoding/json"
	"fmt"
	"strings"
)

// OpenModes are the values of openMode (reference/gui.md §5–§6:
// normal, readOnly, new); package desktop acts on them.
var OpenModes = []string{"normal", "readOnly", "new"}

// msgOpenModeIgnored is the notice when openMode holds something else.
const msgOpenModeIgnored = "設定ファイルの開き方（openMode）「%s」を読み取れなかったため、無視しました（通常どおり開きます）。"

// ParseOpenMode is the one check of an openMode value, wherever it comes
// from (settings.json, `fumibako open --mode`, the web UI's open menu): one
// of OpenModes in any case and with spaces around, or "" for the default,
// normal. Anything else gives "normal" and false. Package desktop's
// ParseMode and the settings key's choice check agree with it.
func ParseOpenMode(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return OpenModes[0], true
	}
	for _, m := range OpenModes {
		if strings.EqualFold(v, m) {
			return m, true
		}
	}
	return OpenModes[0], false
}

// readOpenMode sets s.OpenMode from the openMode key of data. A value of
// another type or an unknown name (ParseOpenMode) is left out with a notice (s.Ignored),
// so a hand-edited setting never makes the whole file unreadable.
func (s *Settings) readOpenMode(data []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return
	}
	raw, ok := top["openMode"]
	if !ok {
		return
	}
	// A name in another case (readonly, written by hand) is the mode.
	shown := string(raw)
	var v string
	if json.Unmarshal(raw, &v) == nil {
		if m, ok := ParseOpenMode(v); ok && strings.TrimSpace(v) != "" {
			s.OpenMode = m
			return
		}
		shown = v
	}
	note := fmt.Sprintf(msgOpenModeIgnored, shown)
	if s.Ignored != "" {
		note = s.Ignored + "\n" + note
	}
	s.Ignored = note
}
