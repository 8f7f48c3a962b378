package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The 設定 screen (reference/gui.md §5; issue 32): the keys of
// workspace.SettingKeys, the same `fumibako settings` shows, read from and
// saved to settings.json.

// SettingView is one key as the 設定 screen shows it.
type SettingView struct {
	Key      string   `json:"key"`
	Type     string   `json:"type"`
	Section  string   `json:"section"`
	Label    string   `json:"label"`
	Help     string   `json:"help"`
	Choices  []string `json:"choices,omitempty"`
	Min      int      `json:"min"`
	Max      int      `json:"max"`
	ReadOnly bool     `json:"readOnly,omitempty"`
	Value    any      `json:"value"`
}

// msgSettingSaved answers a saved setting.
const msgSettingSaved = "設定「%s」を保存しました。"

// handleSettings answers GET /api/settings: every key with its value.
func (s *Server) handleSettings(w http.ResponseWriter, r *http.Request) {
	st, notice, err := s.loadSettings()
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	out := struct {
		Settings []SettingView `json:"settings"`
		Notice   string        `json:"notice,omitempty"`
	}{Settings: []SettingView{}, Notice: notice}
	for _, k := range workspace.SettingKeys() {
		out.Settings = append(out.Settings, SettingView{Key: k.Key, Type: string(k.Type), Section: k.Section, Label: k.Label, Help: k.Help,
			Choices: k.Choices, Min: k.Min, Max: k.Max, ReadOnly: k.ReadOnly, Value: k.Value(s.ws, st)})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleSettingSet answers POST /api/settings {"values": {key: value, …}}:
// every value is checked first, then all are saved in one edit; a
// refused key or value saves nothing and answers its Japanese text.
func (s *Server) handleSettingSet(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Values map[string]json.RawMessage `json:"values"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	type change struct {
		key   workspace.SettingKey
		value any
	}
	var changes []change
	for name, raw := range req.Values {
		k, ok := workspace.LookupSetting(name)
		if !ok {
			writeUserError(w, http.StatusBadRequest, workspace.UnknownSettingError(name).Error())
			return
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			writeError(w, http.StatusBadRequest, "web: setting "+name+": "+err.Error())
			return
		}
		v, err := k.Check(v)
		if err != nil {
			var se *workspace.SettingError
			if errors.As(err, &se) {
				writeUserError(w, http.StatusBadRequest, se.Msg)
				return
			}
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		changes = append(changes, change{k, v})
	}
	_, err := s.ws.UpdateSettings(func(st *workspace.Settings) error {
		for _, c := range changes {
			if err := c.key.Set(st, c.value); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if text, ok := indexer.UserText(err); ok {
			writeUserError(w, http.StatusConflict, text)
			return
		}
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	names := make([]string, len(changes))
	for i, c := range changes {
		names[i] = c.key.Key
		if c.key.Key == "autoUpdate" {
			s.auto.Sync() // the watcher starts or stops as the switch on the index page does
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": fmt.Sprintf(msgSettingSaved, strings.Join(names, "」「"))})
}
