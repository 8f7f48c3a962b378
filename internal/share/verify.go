package share

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/workspace"
)

// archive is an opened zip whose names and manifest passed the checks.
type archive struct {
	path    string
	zr      *zip.ReadCloser
	m       Manifest
	entries map[string]*zip.File // manifest path → entry
	total   int64                // bytes of the listed files
}

func (a *archive) Close() error { return a.zr.Close() }

// openArchive opens the zip at path and checks everything that needs no
// entry's bytes but the manifest's: names, the manifest, sizes.
func openArchive(path string) (*archive, error) {
	base := filepath.Base(path)
	zr, err := zip.OpenReader(path)
	if errors.Is(err, zip.ErrInsecurePath) && zr != nil {
		err = nil // Go's own name check (GODEBUG zipinsecurepath=0): ours below names the entry
	}
	if err != nil {
		return nil, refused(err, MsgNotZip, base)
	}
	a := &archive{path: path, zr: zr, entries: map[string]*zip.File{}}
	if err := a.check(base); err != nil {
		zr.Close()
		return nil, err
	}
	return a, nil
}

func (a *archive) check(base string) error {
	byName := map[string]*zip.File{}
	folded := map[string]string{}
	var manifest *zip.File
	for _, f := range a.zr.File {
		name := f.Name
		if strings.HasSuffix(name, "/") && f.UncompressedSize64 == 0 {
			name = strings.TrimSuffix(name, "/") // a folder entry: its name is checked too
			if p := pathProblem(name + "/" + ".fumibako-index"); p == problemUnsafe || name == "" {
				return refused(nil, MsgUnsafePath, f.Name)
			}
			continue
		}
		switch pathProblem(name) {
		case problemUnsafe:
			return refused(nil, MsgUnsafePath, f.Name)
		case problemName:
			return refused(nil, MsgBadName, f.Name)
		}
		k := workspace.FoldKey(name)
		if prev, ok := folded[k]; ok {
			return refused(nil, MsgDuplicate, prev)
		}
		folded[k] = name
		byName[name] = f
		if name == ManifestEntry {
			manifest = f
		}
	}
	if manifest == nil {
		return refused(nil, MsgNotArchive, base)
	}
	if manifest.UncompressedSize64 > MaxManifest {
		return refused(nil, MsgManifestLarge, manifest.UncompressedSize64>>20)
	}
	rc, err := manifest.Open()
	if err != nil {
		return refused(err, MsgNotZip, base)
	}
	data, err := io.ReadAll(io.LimitReader(rc, MaxManifest+1))
	rc.Close()
	if err != nil {
		return refused(err, MsgNotZip, base)
	}
	if len(data) > MaxManifest {
		return refused(nil, MsgManifestLarge, len(data)>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&a.m); err != nil {
		return refused(err, MsgManifestBroken, err)
	}
	m := &a.m
	if m.Format != FormatName {
		return refused(nil, MsgNotArchive, base)
	}
	if m.FormatVersion > FormatVersion {
		return refused(nil, MsgNewerVersion, m.AppVersion, m.FormatVersion, FormatVersion)
	}
	if m.FormatVersion < 1 {
		return refused(nil, MsgManifestBroken, fmt.Sprintf("formatVersion %d", m.FormatVersion))
	}
	for _, f := range m.Files {
		if f.Path == ManifestEntry {
			return refused(nil, MsgManifestBroken, "files lists the manifest")
		}
		switch pathProblem(f.Path) {
		case problemUnsafe:
			return refused(nil, MsgUnsafePath, f.Path)
		case problemName:
			return refused(nil, MsgBadName, f.Path)
		}
		if _, dup := a.entries[f.Path]; dup {
			return refused(nil, MsgDuplicate, f.Path)
		}
		zf, ok := byName[f.Path]
		if !ok {
			return refused(nil, MsgMissing, f.Path)
		}
		if sum, err := hex.DecodeString(f.SHA256); err != nil || len(sum) != sha256.Size {
			return refused(err, MsgManifestBroken, "sha256 of "+f.Path)
		}
		if f.Size < 0 || uint64(f.Size) != zf.UncompressedSize64 {
			return refused(nil, MsgChanged, f.Path)
		}
		a.entries[f.Path] = zf
		a.total += f.Size
	}
	for name := range byName {
		if _, ok := a.entries[name]; !ok && name != ManifestEntry {
			return refused(nil, MsgUnlisted, name)
		}
	}
	if _, ok := a.entries[RowsEntry]; !ok {
		return refused(nil, MsgMissing, RowsEntry)
	}
	return nil
}

// copyEntry copies the listed file path of the zip to w (nil: only
// read), checking its size and SHA-256 against the manifest.
func (a *archive) copyEntry(f File, w io.Writer, buf []byte, count func(int)) error {
	rc, err := a.entries[f.Path].Open()
	if err != nil {
		return refused(err, MsgNotZip, filepath.Base(a.path))
	}
	defer rc.Close()
	h := sha256.New()
	var n int64
	r := io.LimitReader(rc, f.Size+1)
	for {
		k, rerr := r.Read(buf)
		if k > 0 {
			h.Write(buf[:k])
			if w != nil {
				if _, err := w.Write(buf[:k]); err != nil {
					return err
				}
			}
			n += int64(k)
			if count != nil {
				count(k)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			// A checksum error (zip.ErrChecksum) is a changed byte; a
			// cut or damaged stream is a broken zip.
			if errors.Is(rerr, zip.ErrChecksum) {
				return refused(rerr, MsgChanged, f.Path)
			}
			return refused(rerr, MsgNotZip, filepath.Base(a.path))
		}
	}
	if n != f.Size || hex.EncodeToString(h.Sum(nil)) != strings.ToLower(f.SHA256) {
		return refused(nil, MsgChanged, f.Path)
	}
	return nil
}

// readRows reads the zip's rows with the prefix "<name>\" added, refusing
// any line that does not read back as a row.
func (a *archive) readRows(name string, buf []byte) ([]ingestlist.Row, error) {
	var raw bytes.Buffer
	if err := a.copyEntry(a.file(RowsEntry), &raw, buf, nil); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(&raw)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	header := false
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
			out.WriteString("\ufeff")
		}
		switch {
		case !header && strings.HasPrefix(line, "相対パス\t"):
			header = true
		case !header:
			return nil, refused(nil, MsgBadRows, n)
		case strings.TrimSpace(line) != "":
			line = name + `\` + line
		}
		out.WriteString(strings.TrimSuffix(line, "\r") + "\r\n")
	}
	if err := sc.Err(); err != nil || !header {
		return nil, refused(err, MsgBadRows, n)
	}
	l, err := ingestlist.Read(&out)
	if err != nil {
		return nil, refused(err, MsgBadRows, 1)
	}
	if len(l.Skips) > 0 {
		return nil, refused(nil, MsgBadRows, l.Skips[0].Line)
	}
	if l.Rejected > 0 || l.Encoding != ingestlist.Native {
		return nil, refused(nil, MsgBadRows, 1)
	}
	return l.Rows, nil
}

// file returns the manifest's entry for path.
func (a *archive) file(path string) File {
	for _, f := range a.m.Files {
		if f.Path == path {
			return f
		}
	}
	return File{}
}
