package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/share"
)

// rezip copies the zip at src to a new file, letting edit change each
// entry's name and bytes (nil drops the entry) and add append entries.
func rezip(t testing.TB, src string, edit func(name string, data []byte) (string, []byte), add map[string][]byte) string {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name string, data []byte) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Flags: 0x800})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		name := f.Name
		if edit != nil {
			name, data = edit(name, data)
		}
		if data != nil {
			put(name, data)
		}
	}
	for name, data := range add {
		put(name, data)
	}
	zw.Close()
	out := filepath.Join(t.TempDir(), "細工.zip")
	os.WriteFile(out, buf.Bytes(), 0o644)
	return out
}

func sha256hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// editManifest changes the manifest of a zip.
func editManifest(t testing.TB, src string, edit func(m map[string]any)) string {
	return rezip(t, src, func(name string, data []byte) (string, []byte) {
		if name != share.ManifestEntry {
			return name, data
		}
		var m map[string]any
		json.Unmarshal(data, &m)
		edit(m)
		out, _ := json.Marshal(m)
		return name, out
	}, nil)
}

// withListed adds an entry and lists it in the manifest, with its true
// size and SHA-256: only the name is wrong.
func withListed(t testing.TB, src, name string, data []byte) string {
	z := rezip(t, src, nil, map[string][]byte{name: data})
	return editManifest(t, z, func(m map[string]any) {
		m["files"] = append(m["files"].([]any), map[string]any{"path": name, "size": len(data), "sha256": sha256hex(data)})
	})
}

func TestImportRefusals(t *testing.T) {
	f, _, good := indexedFixture(t, 12)
	changed := rezip(t, good, func(name string, data []byte) (string, []byte) {
		if strings.HasPrefix(name, "index/") && len(data) > 40 && strings.Count(name, ".") == 2 {
			data = bytes.Clone(data)
			data[len(data)/2] ^= 0x20
		}
		return name, data
	}, nil)
	raw, _ := os.ReadFile(good)
	truncated := filepath.Join(t.TempDir(), "途中まで.zip")
	os.WriteFile(truncated, raw[:len(raw)*2/3], 0o644)
	bigManifest := editManifest(t, good, func(m map[string]any) {
		m["padding"] = strings.Repeat(" ", share.MaxManifest)
	})
	newer := editManifest(t, good, func(m map[string]any) {
		m["formatVersion"] = share.FormatVersion + 1
		m["appVersion"] = "9.9.9"
	})
	cases := []struct {
		name, zip, want string
		args            []string
	}{
		{"dot-dot", withListed(t, good, "../外.txt", []byte("x")), "フォルダの外を指す名前（../外.txt）", nil},
		{"dot-dot-inside", withListed(t, good, "index/a/../../../外/.fumibako-index", []byte("x")), "フォルダの外を指す名前", nil},
		{"absolute", withListed(t, good, "/etc/fumibako.txt", []byte("x")), "フォルダの外を指す名前（/etc/fumibako.txt）", nil},
		{"drive", withListed(t, good, "C:/Windows/x.txt", []byte("x")), "フォルダの外を指す名前", nil},
		{"backslash", withListed(t, good, `index\..\..\x`, []byte("x")), "フォルダの外を指す名前", nil},
		{"CON place file", withListed(t, good, "index/CON.tsv", []byte("x")), "Windows で使えない名前か、インデックスに無いはずの名前（index/CON.tsv）", nil},
		{"CON folder", withListed(t, good, "index/CON/.fumibako-index", []byte("x")), "Windows で使えない名前", nil},
		{"colon", withListed(t, good, "index/a:b/.fumibako-index", []byte("x")), "Windows で使えない名前", nil},
		{"trailing dot", withListed(t, good, "index/見積./.fumibako-index", []byte("x")), "Windows で使えない名前", nil},
		{"case twins", withListed(t, withListed(t, good, "index/ABC/.fumibako-index", []byte("x")), "index/abc/.fumibako-index", []byte("y")), "大文字と小文字だけが違う同じ名前", nil},
		{"unlisted", rezip(t, good, nil, map[string][]byte{"index/x/.fumibako-index": []byte("x")}), "目録に無いファイル（index/x/.fumibako-index）", nil},
		{"changed byte", changed, "が目録と一致しないため取り込めません", nil},
		{"truncated", truncated, "zip ファイルではないか、壊れているため取り込めません", nil},
		{"manifest over 64 MB", bigManifest, "目録（fumibako-index.json）が大きすぎるため取り込めません", nil},
		{"newer format", newer, "新しい版の fumibako（9.9.9）で作られたため取り込めません（形式の版 2。", nil},
		{"not ours", editManifest(t, good, func(m map[string]any) { m["format"] = "tebunko-index" }), "fumibako のインデックスの zip ファイルではありません", nil},
		{"bad name", good, "インデックス名「a|b」は使えません", []string{"--name", "a|b"}},
		{"no space", good, "作業フォルダのディスクの空きが足りないため取り込めません（必要: 1.0 GB、空き: 10 MB。", []string{"--env", "FUMIBAKO_TEST_FREE_SPACE=10485760"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := filepath.Join(t.TempDir(), "ws")
			f.mustRun("--workspace", ws, "import", good, "--name", "既存")
			before := wsFiles(t, ws)
			args := []string{"--workspace", ws, "import", c.zip, "--name", "新規"}
			var env []string
			for i := 0; i < len(c.args); i++ {
				if c.args[i] == "--env" {
					env = append(env, c.args[i+1])
					i++
					continue
				}
				args = append(args, c.args[i])
			}
			cmd := exec.Command(testBinary, args...)
			cmd.Env = append(os.Environ(), env...)
			_, errOut, code, err := runCmd(cmd)
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if code != 0 {
					t.Errorf("exit %d\n%s", code, errOut)
				}
				return
			}
			if code != 1 || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant it to contain %q", code, errOut, c.want)
			}
			if after := wsFiles(t, ws); !mapsEqual(before, after) {
				t.Errorf("a refused import changed the workspace")
			}
		})
	}
}

// TestImportRefusedOnSmallDisk imports into a workspace on a 64 MB tmpfs:
// the real free-space query (statfs) refuses it. It needs root (mount);
// elsewhere the fake of TestImportRefusals stands in.
func TestImportRefusedOnSmallDisk(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root on Linux")
	}
	f, _, good := indexedFixture(t, 6)
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	ws := filepath.Join(dir, "ws")
	_, errOut, code := f.run("--workspace", ws, "import", good)
	if code != 1 || !strings.Contains(errOut, "作業フォルダのディスクの空きが足りないため取り込めません") || !strings.Contains(errOut, "空き: 64 MB") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "work", "store", "content", "営業")); err == nil {
		t.Errorf("index written")
	}
}
