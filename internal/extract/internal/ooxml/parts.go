package ooxml

import (
	"fmt"
	"sort"
)

const DocumentPart = "word/document.xml"

// Fault, set only by tests, runs at the start of every Word and
// PowerPoint package read: a seam to check the panic guard.
var Fault func()

// PartLines runs ReadLines over one part.
func PartLines(p *Pkg, part string, opt LineOptions) (*xmlLines, error) {
	rc, err := p.Open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	opt.Depth = p.Lim.XMLDepth
	x, err := ReadLines(rc, opt)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", part, err)
	}
	return x, nil
}

// SortedRels returns relationships ordered by id, for deterministic picks.
func SortedRels(m map[string]Rel) []Rel {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]Rel, 0, len(ids))
	for _, id := range ids {
		out = append(out, m[id])
	}
	return out
}

const PresentationPart = "ppt/presentation.xml"
