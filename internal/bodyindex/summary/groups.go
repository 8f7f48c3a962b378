package summary

import (
	"crypto/sha256"

	"github.com/fumibako/fumibako/internal/bodyindex/format"
)

// # Groups of parts
//
// A summary column is a Bloom filter sized by the rows of the whole
// summary, which are bounded by a share of the index (summaryShare). The
// keys of a run of text grow more slowly than the text (the same words
// recur), so a column over 64 KB of text has nearly as many keys as one
// over 4 MB and gets far fewer bits than it needs from a budget that
// grows with the bytes. Parts are small where a folder changes often
// (chunks of 64–512 KB, so that a changed file re-encodes a few hundred
// KB), but columns are per group: a run of consecutive parts of one
// folder of groupMin to groupMax bytes. A search that lets a group
// through opens its parts, and each part's per-block filter decides.
//
// Groups never cross folders, so a rare word still opens only the
// folders that hold it. Like chunks, a group ends where a part's id (its
// content) says so once it holds groupMin bytes, so that a changed part
// changes its own group and at most the next one: the other groups keep
// their part ids, hence their id, and their columns are copied from the
// summary before (reuse.go).

// Sizes of groups, in part bytes. Variables so that tests can make
// groups of a few small parts.
var (
	groupMin = 4 << 20
	groupMax = 6 << 20
)

// groupAnchor: a group that holds groupMin bytes ends after a part whose
// id's first byte has these bits 0 (one part in four).
const groupAnchor = 3

// summaryGroup is one column of parts: parts first .. first+n-1 of the
// part table.
type summaryGroup struct {
	first, n int
	id       [format.IDSize]byte // groupID of its parts
}

// groupParts cuts the parts of each folder into groups.
func groupParts(dirs []sumDir) []summaryGroup {
	var groups []summaryGroup
	for i := range dirs {
		d := &dirs[i]
		size, start := int64(0), 0
		for k, r := range d.parts {
			size += r.Size
			if k == len(d.parts)-1 || size >= int64(groupMax) || size >= int64(groupMin) && r.ID[0]&groupAnchor == 0 {
				groups = append(groups, summaryGroup{first: d.first + start, n: k + 1 - start, id: groupID(d.parts[start : k+1])})
				size, start = 0, k+1
			}
		}
	}
	return groups
}

// groupID names a group by its parts: the first bytes of the SHA-256 of
// their ids in order. A group with the same parts has the same keys.
func groupID(parts []format.PartRef) [format.IDSize]byte {
	h := sha256.New()
	for _, r := range parts {
		h.Write(r.ID[:])
	}
	var id [format.IDSize]byte
	copy(id[:], h.Sum(nil))
	return id
}

// groupIDs returns the id of each group of a summary read back.
func (s *Reader) groupIDs() [][format.IDSize]byte {
	ids := make([][format.IDSize]byte, len(s.groups))
	refs := make([]format.PartRef, 0, 16)
	for g := range s.groups {
		refs = refs[:0]
		for _, id := range s.parts[s.groups[g]:s.groupEnd(g)] {
			refs = append(refs, format.PartRef{ID: id})
		}
		ids[g] = groupID(refs)
	}
	return ids
}

// groupEnd returns the part after the last one of group g.
func (s *Reader) groupEnd(g int) int {
	if g+1 < len(s.groups) {
		return s.groups[g+1]
	}
	return len(s.parts)
}
