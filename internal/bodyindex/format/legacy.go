package format

import (
	"fmt"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/osfile"
)

// OpenLegacy opens a folder of format version v for Rebuild (package
// bodyindex), which re-encodes it in the current version. A part that
// cannot be read is kept as an error: its files are reported lost.
func OpenLegacy(dir string, v uint32) (*Folder, error) {
	path := filepath.Join(dir, ManifestName)
	data, err := osfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := parseManifestVersion(path, data, v)
	if err != nil {
		return nil, err
	}
	f := &Folder{Dir: dir, files: m.Files, refs: m.Parts, legacy: true}
	for _, r := range m.Parts {
		pp := filepath.Join(dir, PartName(r.ID))
		var p *Part
		data, unmap, _, err := mapFile(pp)
		if err == nil {
			f.unmaps = append(f.unmaps, unmap)
			p, err = parsePart(pp, data, v)
			if err == nil && int64(len(data)) != r.Size {
				p, err = nil, &MalformedError{Path: pp, What: fmt.Sprintf("size %d, manifest says %d", len(data), r.Size)}
			}
		}
		f.parts = append(f.parts, p)
		f.errs = append(f.errs, err)
	}
	return f, nil
}
