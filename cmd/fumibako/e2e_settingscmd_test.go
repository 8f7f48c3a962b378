package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSettingsCommand (issue 32): settings set writes settings.json, get
// and list read it back, and a bad key or value is refused in Japanese
// with exit 2, settings.json untouched.
func TestSettingsCommand(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		args []string
		out  string // part of stdout (exit 0)
		err  string // part of stderr (exit 2)
	}{
		{args: []string{"set", "workers", "3"}, out: "設定「workers」を「3」にしました。"},
		{args: []string{"set", "search.kinds", "word,EXCEL"}, out: "設定「search.kinds」を「excel,word」にしました。"},
		{args: []string{"set", "search.shapes", "off"}, out: "「off」にしました。"},
		{args: []string{"set", "openMode", "readonly"}, out: "設定「openMode」を「readOnly」にしました。"},
		{args: []string{"get", "workers"}, out: "3\n"},
		{args: []string{"get", "Search.Kinds"}, out: "excel,word\n"},
		{args: []string{"set", "wrkers", "3"}, err: "設定「wrkers」はありません。fumibako settings list で一覧を表示できます。「workers」のことですか？"},
		{args: []string{"get", "nosuch"}, err: "設定「nosuch」はありません。"},
		{args: []string{"set", "workers", "many"}, err: "設定「workers」には 0 から 64 までの整数を指定してください（指定された値: 「many」）。"},
		{args: []string{"set", "search.case", "はい"}, err: "設定「search.case」には on か off を指定してください"},
		{args: []string{"set", "openMode", "edit"}, err: "normal、readOnly、new のどれか"},
		{args: []string{"set", "workspace", "/tmp"}, err: "設定「workspace」は変えられません。"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := f.run(append([]string{"settings"}, tc.args...)...)
			if tc.err != "" {
				if code != 2 || !strings.Contains(errOut, tc.err) || !strings.Contains(errOut, "--help") {
					t.Errorf("exit %d, stderr %q, want 2 and %q", code, errOut, tc.err)
				}
				return
			}
			if code != 0 || !strings.Contains(out, tc.out) {
				t.Errorf("exit %d, stdout %q, stderr %q, want %q", code, out, errOut, tc.out)
			}
		})
	}
	data, err := os.ReadFile(filepath.Join(f.ws, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Workers  int            `json:"workers"`
		OpenMode string         `json:"openMode"`
		Search   map[string]any `json:"search"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Workers != 3 || got.OpenMode != "readOnly" || got.Search["shapes"] != false || len(got.Search["kinds"].([]any)) != 2 {
		t.Errorf("settings.json = %s", data)
	}
	out := f.mustRun("settings", "list")
	for _, want := range []string{"workers", "同時に取り込むプロセスの数", "search.kinds", "excel,word", "openMode", "readOnly", "workspace", f.ws} {
		if !strings.Contains(out, want) {
			t.Errorf("settings list lacks %q:\n%s", want, out)
		}
	}
	out = f.mustRun("settings", "list", "--json")
	if !strings.Contains(out, `{"key":"workers","type":"int","value":3,`) {
		t.Errorf("settings list --json:\n%s", out)
	}
	// An empty value is the default again.
	if out := f.mustRun("settings", "set", "search.kinds", ""); !strings.Contains(out, "設定「search.kinds」を既定に戻しました。") {
		t.Errorf("reset: %q", out)
	}
	if out := f.mustRun("settings", "get", "search.kinds"); out != "\n" {
		t.Errorf("kinds after reset = %q", out)
	}
}
