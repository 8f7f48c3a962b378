package summary

import (
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
)

// The folders of a summary: its folder table, looked up by number on a
// trusted walk and by path otherwise.

// readFolders reads the folder table into s.entries; a non-empty result
// says what is wrong with it.
func (s *Reader) readFolders(table, names []byte) string {
	le := binary.LittleEndian
	nDirs, nParts := len(table)/summaryDirSize, len(s.parts)
	entries := make([]Dir, nDirs)
	for i := range entries {
		e := table[summaryDirSize*i:]
		parent, off, n := int(le.Uint32(e)), int(le.Uint32(e[4:])), int(le.Uint32(e[8:]))
		first, count, flags := int(le.Uint32(e[12:])), int(le.Uint32(e[16:])), le.Uint32(e[20:])
		if int64(off)+int64(n) > int64(len(names)) || int64(first)+int64(count) > int64(nParts) {
			return fmt.Sprintf("folder %d out of range", i)
		}
		name := string(names[off : off+n])
		d := &entries[i]
		*d = Dir{Number: i, Mtime: int64(le.Uint64(e[24:])), HasIndex: flags&dirHasIndex != 0, Opaque: flags&dirOpaque != 0,
			FirstPart: first, PartIDs: s.parts[first : first+count], NameColumn: nParts + i, parent: parent, name: name}
		switch {
		case i == 0:
			if uint32(parent) != noParent || name != "" {
				return "folder 0 is not the index folder"
			}
		case parent >= i || name == "" || strings.ContainsAny(name, `/\`):
			return fmt.Sprintf("folder %d: bad parent or name", i)
		default:
			p := &entries[parent]
			p.Subdirs = append(p.Subdirs, name)
			p.Children = append(p.Children, i)
		}
	}
	s.entries = entries
	return ""
}

// dirMap returns the entries by relative path, made at the first lookup
// by path: a walk of a trusted summary goes by number and never needs it.
func (s *Reader) dirMap() map[string]*Dir {
	if s.dirs != nil {
		return s.dirs
	}
	s.dirs = make(map[string]*Dir, len(s.entries))
	rels := make([]string, len(s.entries))
	for i := range s.entries {
		d := &s.entries[i]
		if i > 0 {
			rels[i] = joinRel(rels[d.parent], d.name)
		}
		s.dirs[rels[i]] = d
	}
	return s.dirs
}

func joinRel(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// Dir returns the entry of the folder at rel (names joined by /, "" for
// the index folder), or nil.
func (s *Reader) Dir(rel string) *Dir { return s.dirMap()[rel] }

// FreshDir returns the entry of the folder at rel when the folder still
// is as the entry says, else nil. Unless the index is marked changing, the
// entry is believed without a look at the folder (changing.go); an entry
// recorded without a time (changed while the summary was written) never
// is.
func (s *Reader) FreshDir(rel string) *Dir {
	d := s.dirMap()[rel]
	if d == nil || d.Mtime == 0 {
		return nil
	}
	if s.trusted {
		return d
	}
	if s.stat == nil {
		s.stat = openDirStatter(s.root)
	}
	if mtime, ok := s.stat.mtime(rel); !ok || mtime != d.Mtime {
		return nil
	}
	return d
}

// Trusted reports whether the summary's entries hold without a look at
// the folders (the index was not marked changing when it was opened):
// then a folder's entry is fresh whenever its parent's is, and a walk may
// go from entry to entry (Entry) without looking its folders up by path.
func (s *Reader) Trusted() bool { return s.trusted }

// Entry returns the entry of folder number i (Dir.Number,
// Children) when it is fresh, else nil.
func (s *Reader) Entry(i int) *Dir {
	d := &s.entries[i]
	if d.Mtime == 0 || !s.trusted {
		return nil
	}
	return d
}

// Live marks, by folder number, the folders whose sub-tree (the folder
// included) holds a folder that a search with the candidates cand
// (Candidates) must open: one with a candidate part, one whose manifest
// could not be read, or, with names, one whose file paths may match.
// indexed counts the folders with a body index in each sub-tree, the ones
// a walk that skips it leaves unopened. An entry without a time is live
// (the walk lists it itself). A search of a trusted summary then walks
// only towards what can match, instead of through every folder (4,000
// at 10 GB) to learn that most have no candidate.
func (s *Reader) Live(cand []uint64, names bool) (live []bool, indexed []int) {
	bit := func(j int) bool { return cand[j/64]&(1<<uint(j%64)) != 0 }
	live = make([]bool, len(s.entries))
	indexed = make([]int, len(s.entries))
	for i := len(s.entries) - 1; i >= 0; i-- {
		d := &s.entries[i]
		if d.HasIndex {
			indexed[i]++
			live[i] = live[i] || d.Opaque || names && bit(d.NameColumn)
			for j := d.FirstPart; j < d.FirstPart+len(d.PartIDs) && !live[i]; j++ {
				live[i] = bit(j)
			}
		}
		live[i] = live[i] || d.Mtime == 0
		for _, c := range d.Children {
			live[i] = live[i] || live[c]
			indexed[i] += indexed[c]
		}
	}
	return live, indexed
}

// joinPath joins a /-separated relative path to root.
func joinPath(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
