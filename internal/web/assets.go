package web

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

// assets are the pages, styles and scripts, embedded so the binary serves
// them offline; nothing is fetched from elsewhere.
//
//go:embed assets
var assets embed.FS

// assetHandler serves /assets/<file>; folders are not listed.
func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embed directive guarantees the folder
	}
	files := http.StripPrefix("/assets/", http.FileServer(http.FS(sub)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") || r.URL.Path == "/assets/index.html" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// handlePage serves the single page with the session token in its meta
// tag (the token is hex, so it needs no escaping).
func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	page, err := assets.ReadFile("assets/index.html")
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	page = bytes.Replace(page, []byte("{{TOKEN}}"), []byte(s.token), 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page)
}
