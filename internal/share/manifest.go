package share

import (
	"encoding/hex"
	"strings"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
	"github.com/fumibako/fumibako/internal/workspace"
)

// FormatName is the manifest's "format" (tebunko writes "tebunko-index").
const FormatName = "fumibako-index"

// FormatVersion is the version of the zip layout and manifest this
// package writes and the newest it reads:
//
//	1: manifest, ingest_status.tsv, summary, index/ (issue 30)
const FormatVersion = 1

// Entry names of the zip (doc.go).
const (
	ManifestEntry = "fumibako-index.json"
	RowsEntry     = "ingest_status.tsv"
	SummaryEntry  = "summary"
	IndexDir      = "index/"
)

// MaxManifest is the largest manifest an import reads (tebunko: 64 MB).
const MaxManifest = 64 << 20

// Headroom is the free space an import wants beyond the index's size.
const Headroom = 1 << 30

// Manifest is fumibako-index.json.
type Manifest struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"formatVersion"`
	AppVersion    string `json:"appVersion"`
	ExportedAt    string `json:"exportedAt"`
	IndexName     string `json:"indexName"`
	SourceFolder  string `json:"sourceFolder"`
	Files         []File `json:"files"`
}

// File is one entry of the manifest's files.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// bodyFile reports whether name is a file of a folder's body index: its
// manifest or a part (bodyindex doc.go "Files").
func bodyFile(name string) bool {
	if name == format.ManifestName {
		return true
	}
	id, ok := strings.CutPrefix(name, format.ManifestName+".")
	if !ok || len(id) != 32 || strings.ToLower(id) != id {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// pathProblem classifies an entry name: "" when it is one of the layout's,
// problemUnsafe when it is absolute or leaves its folder, problemName when
// a segment is a name Windows cannot hold (or one the layout has no place
// for, such as a place TSV or a dot folder).
func pathProblem(name string) string {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) ||
		len(name) >= 2 && name[1] == ':' {
		return problemUnsafe
	}
	segs := strings.Split(name, "/")
	for _, s := range segs {
		if s == ".." || s == "." || s == "" {
			return problemUnsafe
		}
	}
	switch name {
	case RowsEntry, SummaryEntry, ManifestEntry:
		return ""
	}
	if segs[0]+"/" != IndexDir || len(segs) < 2 {
		return problemName
	}
	for _, s := range segs[1 : len(segs)-1] {
		if !workspace.TestStoredIndexName(s) || workspace.IsReservedName(s) || strings.HasPrefix(s, ".") {
			return problemName
		}
	}
	if !bodyFile(segs[len(segs)-1]) {
		return problemName
	}
	return ""
}

const (
	problemUnsafe = "unsafe"
	problemName   = "name"
)
