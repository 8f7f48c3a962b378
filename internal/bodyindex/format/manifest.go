package format

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/fumibako/fumibako/internal/osfile"
)

// FileInfo is what a folder's body index holds about one source file.
type FileInfo struct {
	// Places is the number of places stored (the TSVs the per-file folder
	// had); 0 for a file without text, which is recorded all the same.
	Places int
	// Lines is the number of lines of all places together.
	Lines int
	// TextBytes is the size of its text in UTF-8 with one LF per line.
	TextBytes int64
	// ModTime and Size are the source file's modification time and size
	// when it was indexed (from the crawl); ModTime is zero when unknown.
	ModTime time.Time
	Size    int64
}

// FileEntry is one row of the manifest's file table.
type FileEntry struct {
	Name        string
	Places      int
	Lines       int
	TextBytes   int64
	FoldedBytes int64
	Mtime       int64 // source file's modification time as indexed (Unix ns; 0 unknown)
	Size        int64 // source file's size as indexed
}

// PartRef is one row of the manifest's part table.
type PartRef struct {
	ID        [IDSize]byte
	Size      int64
	FirstFile int
	FirstLine int
	LastFile  int
	EndLine   int
}

// Manifest is a parsed .fumibako-index.
type Manifest struct {
	Parts []PartRef
	Files []FileEntry
}

// PartName is the file name of a part.
func PartName(id [IDSize]byte) string { return partPrefix + hex.EncodeToString(id[:]) }

// ReadManifest reads dir's manifest; a missing one gives nil, nil.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	data, err := osfile.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bodyindex: read %s: %w", path, err)
	}
	m, err := parseManifest(path, data)
	if err != nil {
		var rb *RebuildError
		if errors.As(err, &rb) {
			rb.Dir = dir
			return nil, rb
		}
		return nil, &RebuildError{Dir: dir, Cause: err}
	}
	return m, nil
}

// parseManifest decodes manifest bytes. Another magic or version gives a
// *RebuildError; anything else malformed a *FormatError.
func parseManifest(path string, data []byte) (*Manifest, error) {
	return parseManifestVersion(path, data, Version)
}

// parseManifestVersion parses a manifest of format version version: the
// current one, or version 2 or 3, whose manifests have the same layout.
func parseManifestVersion(path string, data []byte, version uint32) (*Manifest, error) {
	le := binary.LittleEndian
	bad := func(off int, what string) error { return &MalformedError{Path: path, Offset: int64(off), What: what} }
	if len(data) < manifestHeaderSize {
		return nil, &RebuildError{Cause: bad(0, "short header")}
	}
	if string(data[:8]) != manifestMagic {
		return nil, &RebuildError{Cause: bad(0, "not a fumibako body index manifest")}
	}
	if v := le.Uint32(data[8:]); v != version {
		rb := &RebuildError{Version: int(min(v, 1<<30))}
		if v > 0 && v < Version && version == Version {
			rb.Files = legacyFileNames(path, data)
		}
		return nil, rb
	}
	nParts := int64(le.Uint32(data[12:]))
	nFiles := int64(le.Uint32(data[16:]))
	nNames := int64(le.Uint32(data[20:]))
	want := manifestHeaderSize + manifestPartSize*nParts + manifestFileSize*nFiles + nNames
	if want != int64(len(data)) {
		return nil, bad(12, fmt.Sprintf("counts give %d bytes, file has %d", want, len(data)))
	}
	body := data[manifestHeaderSize:]
	if crc32.Checksum(body, Castagnoli()) != le.Uint32(data[28:]) {
		return nil, bad(28, "checksum mismatch")
	}
	m := &Manifest{Parts: make([]PartRef, nParts), Files: make([]FileEntry, nFiles)}
	p := body
	for i := range m.Parts {
		r := &m.Parts[i]
		copy(r.ID[:], p)
		r.Size = int64(le.Uint64(p[16:]))
		r.FirstFile = int(le.Uint32(p[24:]))
		r.FirstLine = int(le.Uint32(p[28:]))
		r.LastFile = int(le.Uint32(p[32:]))
		r.EndLine = int(le.Uint32(p[36:]))
		if r.Size <= 0 || r.Size > partLimit || r.FirstFile > r.LastFile || int64(r.LastFile) >= nFiles {
			return nil, bad(manifestHeaderSize+i*manifestPartSize, "bad part entry")
		}
		if i > 0 {
			prev := m.Parts[i-1]
			if r.FirstFile < prev.LastFile || (r.FirstFile == prev.LastFile && r.FirstLine < prev.EndLine) {
				return nil, bad(manifestHeaderSize+i*manifestPartSize, "parts out of order")
			}
		}
		p = p[manifestPartSize:]
	}
	names := body[manifestPartSize*nParts+manifestFileSize*nFiles:]
	for i := range m.Files {
		f := &m.Files[i]
		off, n := int64(le.Uint32(p)), int64(le.Uint32(p[4:]))
		if off+n > int64(len(names)) {
			return nil, bad(len(data)-len(p), "file name outside the name pool")
		}
		f.Name = string(names[off : off+n])
		if f.Name == "" || !utf8.ValidString(f.Name) {
			return nil, bad(len(data)-len(p), "bad file name")
		}
		f.Places = int(le.Uint32(p[8:]))
		f.Lines = int(le.Uint32(p[12:]))
		f.TextBytes = int64(le.Uint64(p[16:]) & (1<<62 - 1))
		f.FoldedBytes = int64(le.Uint64(p[24:]) & (1<<62 - 1))
		f.Mtime = int64(le.Uint64(p[32:]))
		f.Size = int64(le.Uint64(p[40:]) & (1<<62 - 1))
		p = p[manifestFileSize:]
	}
	for i, r := range m.Parts {
		if r.EndLine > m.Files[r.LastFile].Lines || r.FirstLine >= max(m.Files[r.FirstFile].Lines, 1) {
			return nil, bad(manifestHeaderSize+i*manifestPartSize, "part range outside its files")
		}
	}
	return m, nil
}

// legacyFileNames returns the file names of an older manifest version
// where this build knows how to find them (so that Rebuild names them and
// the indexer ingests them again), else nil. Version 1 differs from 2 only
// in the size of a file-table row; version 2 and 3 manifests are laid
// out as version 4 ones.
func legacyFileNames(path string, data []byte) []string {
	le := binary.LittleEndian
	for _, v := range []uint32{3, 2} {
		if m, err := parseManifestVersion(path, data, v); err == nil {
			var out []string
			for _, f := range m.Files {
				out = append(out, f.Name)
			}
			return out
		}
	}
	if len(data) < manifestHeaderSize || le.Uint32(data[8:]) != 1 {
		return nil
	}
	nParts, nFiles, nNames := int64(le.Uint32(data[12:])), int64(le.Uint32(data[16:])), int64(le.Uint32(data[20:]))
	table := manifestHeaderSize + manifestPartSize*nParts
	pool := table + manifestFileSizeV1*nFiles
	if pool+nNames != int64(len(data)) || crc32.Checksum(data[manifestHeaderSize:], Castagnoli()) != le.Uint32(data[28:]) {
		return nil
	}
	names := data[pool:]
	var out []string
	for i := int64(0); i < nFiles; i++ {
		e := data[table+manifestFileSizeV1*i:]
		off, n := int64(le.Uint32(e)), int64(le.Uint32(e[4:]))
		if off+n > nNames {
			return nil
		}
		if name := string(names[off : off+n]); name != "" && utf8.ValidString(name) {
			out = append(out, name)
		}
	}
	return out
}

// EncodeManifest returns the bytes of a manifest.
func EncodeManifest(parts []PartRef, files []FileEntry) []byte {
	le := binary.LittleEndian
	var names []byte
	body := make([]byte, 0, manifestPartSize*len(parts)+manifestFileSize*len(files))
	for _, p := range parts {
		body = append(body, p.ID[:]...)
		body = le.AppendUint64(body, uint64(p.Size))
		body = le.AppendUint32(body, uint32(p.FirstFile))
		body = le.AppendUint32(body, uint32(p.FirstLine))
		body = le.AppendUint32(body, uint32(p.LastFile))
		body = le.AppendUint32(body, uint32(p.EndLine))
	}
	for _, f := range files {
		body = le.AppendUint32(body, uint32(len(names)))
		body = le.AppendUint32(body, uint32(len(f.Name)))
		names = append(names, f.Name...)
		body = le.AppendUint32(body, uint32(f.Places))
		body = le.AppendUint32(body, uint32(f.Lines))
		body = le.AppendUint64(body, uint64(f.TextBytes))
		body = le.AppendUint64(body, uint64(f.FoldedBytes))
		body = le.AppendUint64(body, uint64(f.Mtime))
		body = le.AppendUint64(body, uint64(f.Size))
		body = le.AppendUint64(body, 0)
	}
	body = append(body, names...)
	out := make([]byte, 0, manifestHeaderSize+len(body))
	out = append(out, manifestMagic...)
	out = le.AppendUint32(out, WriteVersion)
	out = le.AppendUint32(out, uint32(len(parts)))
	out = le.AppendUint32(out, uint32(len(files)))
	out = le.AppendUint32(out, uint32(len(names)))
	out = le.AppendUint32(out, 0)
	out = le.AppendUint32(out, crc32.Checksum(body, Castagnoli()))
	return append(out, body...)
}

// Info returns the FileInfo of a file entry.
func (f FileEntry) Info() FileInfo {
	fi := FileInfo{Places: f.Places, Lines: f.Lines, TextBytes: f.TextBytes, Size: f.Size}
	if f.Mtime != 0 {
		fi.ModTime = time.Unix(0, f.Mtime)
	}
	return fi
}

// Files returns the files that dir's body index holds, by file name. It
// reads only the manifest. A folder without a body index gives an empty
// map; an index of another version or a damaged manifest a *RebuildError.
func Files(dir string) (map[string]FileInfo, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]FileInfo{}
	if m == nil {
		return out, nil
	}
	for _, f := range m.Files {
		out[f.Name] = f.Info()
	}
	return out, nil
}

// FolderHasIndex reports whether dir holds a body index (of any version).
func FolderHasIndex(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, ManifestName))
	return err == nil && st.Mode().IsRegular()
}

// NeedsRebuild reports whether dir holds a body index that this build
// cannot read completely: another version, a damaged manifest, or a part
// that does not parse (it maps every part: cheap, but not free).
func NeedsRebuild(dir string) bool {
	f, err := OpenFolder(dir)
	var rb *RebuildError
	if errors.As(err, &rb) {
		return true
	}
	if err != nil || f == nil {
		return false
	}
	defer f.Close()
	for i := 0; i < f.NumParts(); i++ {
		if f.PartErr(i) != nil {
			return true
		}
	}
	return false
}
