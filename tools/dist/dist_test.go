package main

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestReadmeText: the zip's README.ja.txt is made from README.ja.md, with
// no Markdown left for Notepad to show, and says what a user needs (issue
// 32): download, start, first search, where the index lives, uninstall,
// the SmartScreen note; and promises nothing the UI lacks.
func TestReadmeText(t *testing.T) {
	md, err := os.ReadFile("../../README.ja.md")
	if err != nil {
		t.Fatal(err)
	}
	text := readmeText(string(md))
	for _, mark := range []string{"```", "`", "**", "](", "\n# ", "\n## "} {
		if strings.Contains(text, mark) {
			t.Errorf("README.ja.txt keeps Markdown %q", mark)
		}
	}
	for _, want := range []string{"【ダウンロード】", "【起動する】", "【はじめての検索】", "【インデックスの置き場所】", "【アンインストール】", "SmartScreen", `%LOCALAPPDATA%\fumibako`, "［＋ フォルダを追加］"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.ja.txt lacks %q", want)
		}
	}
	// Issue 32: the old README promised a folder picker before there was
	// one (now ［フォルダを選ぶ…］, which it names) and opening a file by a
	// single click on its row (a double click or Enter opens it).
	if !strings.Contains(text, "［フォルダを選ぶ…］") {
		t.Error("README.ja.txt does not name the folder picker")
	}
	for _, wrong := range []string{"フォルダを選び", "行をクリックすると元のファイルを開け"} {
		if strings.Contains(text, wrong) {
			t.Errorf("README.ja.txt promises %q", wrong)
		}
	}
}

// TestReleaseVersion: v0.N.M from a tag, the describe form after it, and
// v0.0.0-<n>-g<hash> without a tag.
func TestReleaseVersion(t *testing.T) {
	for _, tc := range []struct {
		name     string
		describe string // "" means git describe fails
		want     string
	}{
		{"on a tag", "v0.3.1", "v0.3.1"},
		{"after a tag", "v0.3.1-12-gabc1234", "v0.3.1-12-gabc1234"},
		{"dirty", "v0.3.1-dirty", "v0.3.1-dirty"},
		{"no tag", "", "v0.0.0-42-gabc1234"},
		{"another tag form", "release-7", "v0.0.0-42-gabc1234"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			git := func(args ...string) (string, error) {
				switch args[0] {
				case "describe":
					if tc.describe == "" {
						return "", errors.New("no names found")
					}
					return tc.describe, nil
				case "rev-list":
					return "42", nil
				case "rev-parse":
					return "abc1234", nil
				}
				return "", errors.New("unexpected")
			}
			if got, err := releaseVersion(git); err != nil || got != tc.want {
				t.Errorf("releaseVersion = %q, %v, want %q", got, err, tc.want)
			}
		})
	}
}
