package web

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/fumibako/fumibako/internal/workspace"
)

// The folder picker of ［＋ フォルダを追加］ (issue 32): the server lists
// this machine's folders, since a browser cannot name a folder on disk.
// It starts at the user's folders (home, Desktop, Documents) and the
// drives (Windows: GetLogicalDrives; elsewhere /), and lists subfolders
// only. Only a browser on this machine may ask (like opening a file), and
// with the session token (POST), so no other page can read the tree.

// DirsView answers POST /api/dirs.
type DirsView struct {
	Path   string     `json:"path"`             // the folder listed; "" for the starting places
	Parent string     `json:"parent,omitempty"` // one level up; "" at a drive's root or a place
	Dirs   []DirEntry `json:"dirs"`
	More   bool       `json:"more,omitempty"` // more subfolders than shown
}

// DirEntry is one folder to pick or open.
type DirEntry struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

const (
	dirsMax  = 5000             // subfolders listed at most
	dirsWait = 10 * time.Second // a network folder that does not answer
)

// Messages of the folder picker.
const (
	msgDirsRemote   = "フォルダの一覧は、fumibako を動かしている PC のブラウザでだけ表示できます。フォルダのパスを入力してください。"
	msgDirsRelative = "フォルダ「%s」は絶対パスではありません。"
	msgDirsCannot   = "フォルダ「%s」を開けません（見つからないか、読み取る権限がありません）。"
	msgDirsSlow     = "フォルダ「%s」から応答がありません（ネットワークのフォルダなら、接続を確かめてください）。"
	labelHome       = "ホーム"
	labelDesktop    = "デスクトップ"
	labelDocuments  = "ドキュメント"
)

func (s *Server) handleDirs(w http.ResponseWriter, r *http.Request) {
	var req struct{ Path string }
	if !readJSON(w, r, &req) {
		return
	}
	if !sameMachine(r) {
		writeUserError(w, http.StatusForbidden, msgDirsRemote)
		return
	}
	if strings.TrimSpace(req.Path) == "" {
		writeJSON(w, http.StatusOK, DirsView{Dirs: startPlaces()})
		return
	}
	p := filepath.Clean(cleanPath(req.Path))
	if !filepath.IsAbs(p) {
		writeUserError(w, http.StatusBadRequest, fmt.Sprintf(msgDirsRelative, req.Path))
		return
	}
	type answer struct {
		ents []os.DirEntry
		err  error
	}
	ch := make(chan answer, 1)
	go func() { e, err := os.ReadDir(p); ch <- answer{e, err} }()
	var a answer
	select {
	case a = <-ch:
	case <-time.After(dirsWait):
		writeUserError(w, http.StatusGatewayTimeout, fmt.Sprintf(msgDirsSlow, p))
		return
	}
	if a.err != nil && len(a.ents) == 0 {
		writeJSON(w, http.StatusForbidden, apiError{Error: a.err.Error(), Message: fmt.Sprintf(msgDirsCannot, p)})
		return
	}
	v := DirsView{Path: p, Dirs: []DirEntry{}}
	if up := filepath.Dir(p); up != p {
		v.Parent = up
	}
	for _, e := range a.ents {
		if !isDir(p, e) || hiddenName(e.Name()) {
			continue
		}
		if len(v.Dirs) == dirsMax {
			v.More = true
			break
		}
		v.Dirs = append(v.Dirs, DirEntry{Name: e.Name(), Path: filepath.Join(p, e.Name())})
	}
	slices.SortFunc(v.Dirs, func(a, b DirEntry) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	writeJSON(w, http.StatusOK, v)
}

// isDir: a folder, or a link to one (a junction to a share's folder).
func isDir(parent string, e os.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(filepath.Join(parent, e.Name()))
	return err == nil && fi.IsDir()
}

// hiddenName: folders nobody picks (dot folders, the recycle bin, the
// volume's system folder).
func hiddenName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "$") || strings.EqualFold(name, "System Volume Information")
}

// startPlaces are the user's folders that exist, then the drives.
func startPlaces() []DirEntry {
	var out []DirEntry
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, DirEntry{Name: labelHome, Path: home})
		for _, sub := range []struct{ label, dir string }{
			{labelDesktop, "Desktop"}, {labelDesktop, "デスクトップ"},
			{labelDocuments, "Documents"}, {labelDocuments, "ドキュメント"},
		} {
			p := filepath.Join(home, sub.dir)
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				out = append(out, DirEntry{Name: sub.label, Path: p})
			}
		}
	}
	drives := workspace.DriveRoots()
	if runtime.GOOS != "windows" {
		drives = []string{"/"}
	}
	for _, d := range drives {
		out = append(out, DirEntry{Name: d, Path: d})
	}
	return out
}
