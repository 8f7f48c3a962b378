package web

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/share"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Index export and import (issue 30; reference/gui.md §2.2 ［エクスポート…］
// in a row's menu, ［インポート…］ in the header). Both go through package
// share, which holds the workspace lock while it works.

// Version is the program's version, written into an export's manifest
// (cmd sets it).
var Version = "dev"

const (
	msgImported       = "インデックス「%s」を取り込みました（ファイル %d 件）。すぐに検索できます。"
	msgImportTooLarge = "zip ファイルを受け取れませんでした（作業フォルダに書けないか、途中で切れました）。"
)

// handleIndexExport streams the index named by ?name= as a zip
// (GET /api/index/export?name=…&token=…: a download link cannot set the
// token header, so it comes as a parameter). A refusal found before the
// first byte (a run holds the lock, per-file folders, no such index) is
// answered as JSON with its Japanese text.
func (s *Server) handleIndexExport(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("token")), []byte(s.token)) != 1 {
		writeError(w, http.StatusForbidden, "missing or wrong session token")
		return
	}
	name := q.Get("name")
	lw := &lazyZip{w: w, name: name + ".zip"}
	_, err := share.Export(s.ws, name, lw, share.ExportOptions{AppVersion: Version})
	if err == nil {
		return
	}
	if lw.started {
		// Headers are out: end the stream short, so the browser reports
		// a failed download instead of saving a zip without its manifest.
		panic(http.ErrAbortHandler)
	}
	writeShareError(w, err)
}

// lazyZip writes the download's headers with its first byte.
type lazyZip struct {
	w       http.ResponseWriter
	name    string
	started bool
}

func (l *lazyZip) Write(p []byte) (int, error) {
	if !l.started {
		l.started = true
		l.w.Header().Set("Content-Type", "application/zip")
		l.w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": l.name}))
		l.w.Header().Set("Cache-Control", "no-store")
		l.w.WriteHeader(http.StatusOK)
	}
	return l.w.Write(p)
}

var uploads atomic.Int64

// handleIndexImport imports the zip sent as the request body
// (POST /api/index/import?name=…&overwrite=1, Content-Type
// application/zip, the token header). The body is saved under work/tmp
// first, since a zip is read from its end. A name in use answers 409 with
// error "clash", so the page offers rename, overwrite or cancel.
func (s *Server) handleIndexImport(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(TokenHeader)), []byte(s.token)) != 1 {
		writeError(w, http.StatusForbidden, "missing or wrong session token")
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/zip" {
		writeError(w, http.StatusUnsupportedMediaType, "application/zip body required")
		return
	}
	if s.busy(w, "インポート") {
		return
	}
	tmp := filepath.Join(s.ws.TmpRoot(), fmt.Sprintf("%s%d-%d.zip", share.UploadPrefix, os.Getpid(), uploads.Add(1)))
	if err := saveUpload(tmp, r.Body); err != nil {
		os.Remove(tmp)
		if f := workspace.WriteFault(err); f != nil {
			writeUserError(w, http.StatusInsufficientStorage, f.Error())
			return
		}
		writeUserError(w, http.StatusBadRequest, msgImportTooLarge)
		return
	}
	defer os.Remove(tmp)
	q := r.URL.Query()
	res, err := share.Import(s.ws, tmp, share.ImportOptions{Name: strings.TrimSpace(q.Get("name")), Overwrite: q.Get("overwrite") == "1"})
	if err != nil {
		writeShareError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": fmt.Sprintf(msgImported, res.Name, res.Rows), "name": res.Name})
}

func saveUpload(path string, body io.Reader) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.CopyBuffer(f, body, make([]byte, 256<<10)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeShareError answers an export's or import's error with its
// Japanese text: a clash 409 {error: "clash", name}, a refusal 422, a
// held lock 409, a workspace fault 507, anything else 500.
func writeShareError(w http.ResponseWriter, err error) {
	var clash *share.ClashError
	var refused *share.RefusedError
	switch {
	case errors.As(err, &clash):
		writeJSON(w, http.StatusConflict, map[string]string{"error": "clash", "message": clash.Error(), "name": clash.Name})
	case errors.As(err, &refused):
		writeUserError(w, http.StatusUnprocessableEntity, refused.Msg)
	default:
		text, ok := indexer.UserText(err)
		if !ok {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		code := http.StatusUnprocessableEntity
		if workspace.WriteFault(err) != nil {
			code = http.StatusInsufficientStorage
		}
		writeUserError(w, code, text)
	}
}
