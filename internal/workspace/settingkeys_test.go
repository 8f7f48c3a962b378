package workspace_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestSettingKeyParseText: what `settings set KEY VALUE` accepts, and the
// Japanese message of what it refuses (issue 32).
func TestSettingKeyParseText(t *testing.T) {
	for _, tc := range []struct {
		key, text string
		want      any    // nil: refused
		msg       string // part of the refusal
	}{
		{key: "workers", text: "4", want: 4},
		{key: "workers", text: " 0 ", want: 0},
		{key: "workers", text: "-1", msg: "設定「workers」には 0 から 64 までの整数を指定してください（指定された値: 「-1」）。"},
		{key: "workers", text: "たくさん", msg: "0 から 64 までの整数"},
		{key: "watchFullRescanHours", text: "-1", want: -1},
		{key: "search.case", text: "on", want: true},
		{key: "search.case", text: "OFF", want: false},
		{key: "search.case", text: "はい", msg: "設定「search.case」には on か off を指定してください（指定された値: 「はい」）。"},
		{key: "openMode", text: "readonly", want: "readOnly"},
		{key: "openMode", text: "edit", msg: "normal、readOnly、new のどれか"},
		{key: "search.kinds", text: "word, Excel,word", want: []string{"excel", "word"}},
		{key: "search.kinds", text: "", want: []string(nil)},
		{key: "search.kinds", text: "excel,exel", msg: "（使えない値: 「exel」）"},
		{key: "tesseractPath", text: `C:\Program Files\Tesseract-OCR\tesseract.exe`, want: `C:\Program Files\Tesseract-OCR\tesseract.exe`},
		{key: "tesseractPath", text: "a\x01b", msg: "改行や制御文字を含まない"},
		{key: "workspace", text: "/tmp/x", msg: "設定「workspace」は変えられません。"},
	} {
		t.Run(tc.key+"="+tc.text, func(t *testing.T) {
			k, ok := workspace.LookupSetting(tc.key)
			if !ok {
				t.Fatalf("LookupSetting(%q) not found", tc.key)
			}
			got, err := k.ParseText(tc.text)
			if tc.msg != "" {
				var se *workspace.SettingError
				if !errors.As(err, &se) || !strings.Contains(se.Msg, tc.msg) {
					t.Fatalf("ParseText(%q) = %v, %v, want a SettingError with %q", tc.text, got, err, tc.msg)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseText(%q) = %#v, %v, want %#v", tc.text, got, err, tc.want)
			}
		})
	}
	if _, ok := workspace.LookupSetting("nosuch"); ok {
		t.Error("LookupSetting(nosuch) found")
	}
	if _, ok := workspace.LookupSetting("Search.Case"); !ok {
		t.Error("LookupSetting ignores no case")
	}
}

// TestSettingKeysRoundTrip: every key set through the table is in
// settings.json after a save and reads back the same; defaults are not
// written.
func TestSettingKeysRoundTrip(t *testing.T) {
	ws, err := workspace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]string{
		"search.kinds": "pdf,word", "search.case": "on", "search.kana": "on", "search.regex": "on",
		"search.shapes": "off", "search.comments": "off", "search.fileNames": "off",
		"workers": "3", "fileTimeoutMinutes": "5", "openMode": "new", "autoUpdate": "on",
		"watchFullRescanHours": "6", "tesseractPath": "/opt/tess", "ocrSecondsPerPage": "30",
	}
	if _, err := ws.UpdateSettings(func(s *workspace.Settings) error {
		for key, text := range set {
			k, _ := workspace.LookupSetting(key)
			v, err := k.ParseText(text)
			if err != nil {
				return err
			}
			if err := k.Set(s, v); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ws.SettingsPath())
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	wantSearch := map[string]any{"kinds": []any{"word", "pdf"}, "case": true, "kana": true, "regex": true, "shapes": false, "comments": false, "fileNames": false}
	if !reflect.DeepEqual(raw["search"], wantSearch) || raw["openMode"] != "new" || raw["workers"] != 3.0 {
		t.Errorf("settings.json = %s", data)
	}
	s, err := ws.LoadSettings()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range workspace.SettingKeys() {
		if k.ReadOnly {
			if got := k.Text(k.Value(ws, s)); got != ws.Root {
				t.Errorf("%s = %q, want %q", k.Key, got, ws.Root)
			}
			continue
		}
		want := set[k.Key]
		if k.Key == "search.kinds" {
			want = "word,pdf"
		}
		if got := k.Text(k.Value(ws, s)); got != want {
			t.Errorf("%s = %q after a save, want %q", k.Key, got, want)
		}
	}

	// Back to the defaults: nothing of them is written.
	if _, err := ws.UpdateSettings(func(s *workspace.Settings) error {
		for _, key := range []string{"search.kinds", "search.case", "search.kana", "search.regex", "search.shapes", "search.comments", "search.fileNames", "openMode"} {
			k, _ := workspace.LookupSetting(key)
			def := map[string]string{"search.shapes": "on", "search.comments": "on", "search.fileNames": "on", "openMode": "normal"}[key]
			if def == "" && k.Type == workspace.SettingBool {
				def = "off"
			}
			v, _ := k.ParseText(def)
			if err := k.Set(s, v); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(ws.SettingsPath())
	if strings.Contains(string(data), `"search"`) || strings.Contains(string(data), `"openMode"`) {
		t.Errorf("defaults written: %s", data)
	}
}

// TestReadSearchTolerant: a malformed search object or openMode costs only
// itself, with a notice; the roots and other options are read.
func TestReadSearchTolerant(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		kinds      []string
		caseOn     bool
		openMode   string
		notice     string
	}{
		{name: "good", json: `"search": {"kinds": ["excel"], "case": true}, "openMode": "readOnly"`, kinds: []string{"excel"}, caseOn: true, openMode: "readOnly"},
		{name: "not an object", json: `"search": [1, 2]`, notice: "search）の 1 件"},
		{name: "bad option", json: `"search": {"case": "yes", "kinds": ["excel", "exel"]}`, notice: "search）の 2 件"},
		{name: "later option", json: `"search": {"fuzzy": true, "case": true}`, caseOn: true},
		{name: "bad open mode", json: `"openMode": "edit"`, notice: "openMode）「edit」"},
		{name: "open mode case", json: `"openMode": "READONLY"`, openMode: "readOnly"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := workspace.ParseSettings([]byte(`{"targetFolders": [{"name": "営業", "path": "/srv/営業"}], "workers": 2, ` + tc.json + `}`))
			if err != nil {
				t.Fatal(err)
			}
			caseOn := s.Search.Case != nil && *s.Search.Case
			if len(s.Roots) != 1 || s.Workers != 2 || !reflect.DeepEqual(s.Search.Kinds, tc.kinds) || caseOn != tc.caseOn || s.OpenMode != tc.openMode {
				t.Errorf("ParseSettings = roots %d, workers %d, search %+v, openMode %q", len(s.Roots), s.Workers, s.Search, s.OpenMode)
			}
			if (tc.notice == "") != (s.Ignored == "") || !strings.Contains(s.Ignored, tc.notice) {
				t.Errorf("notice = %q, want %q", s.Ignored, tc.notice)
			}
		})
	}
}

// FuzzParseSettingsSearch: any search object and openMode read without a
// panic, give only values the table accepts, and survive a save.
func FuzzParseSettingsSearch(f *testing.F) {
	f.Add(`{"kinds": ["excel"], "case": true}`, "readOnly")
	f.Add(`[1]`, "edit")
	f.Add(`{"kinds": "excel", "shapes": null}`, "")
	f.Fuzz(func(t *testing.T, search, openMode string) {
		mode, _ := json.Marshal(openMode)
		data := []byte(`{"targetFolders": [], "search": ` + search + `, "openMode": ` + string(mode) + `}`)
		s, err := workspace.ParseSettings(data)
		if err != nil {
			return // not JSON: the broken-file path, tested elsewhere
		}
		for _, k := range workspace.SettingKeys() {
			if k.ReadOnly {
				continue
			}
			if _, err := k.Check(k.Value(nil, s)); err != nil {
				t.Fatalf("%s = %v after reading %q: %v", k.Key, k.Value(nil, s), data, err)
			}
		}
		ws, err := workspace.Open(filepath.Join(t.TempDir(), "ws"))
		if err != nil {
			t.Fatal(err)
		}
		if err := ws.SaveSettings(s); err != nil {
			t.Fatal(err)
		}
		back, err := ws.LoadSettings()
		if err != nil || !reflect.DeepEqual(back.Search, s.Search) || back.OpenMode != s.OpenMode {
			t.Fatalf("save and load of %q: %+v, %v", data, back, err)
		}
	})
}
