package format

import (
	"errors"
	"fmt"
	"hash/crc32"
	"sync"
)

// Version is the version written in the manifest and in every part.
// A folder whose index has another version is not read: readers return a
// *RebuildError and the indexer rebuilds the folder (Rebuild).
//
// History:
//
//	1  first fumibako body index: manifest + content-addressed parts with
//	   folded text, originals as patches over it, per-block n-gram masks.
//	2  the manifest's file table holds each source file's modification
//	   time and size as indexed (56-byte rows): hits show them and search
//	   tells a changed or deleted file. Version 1 folders are rebuilt:
//	   their files are ingested again (Rebuild names them).
//	3  a part's gram masks are 1, 2, 4 or 8 bytes, the fewest that hold
//	   a bit per block (maskWidth), instead of always 8: parts of a few
//	   blocks (chunks of 64–512 KB, tried for issue 21) with 12-byte key
//	   rows made the index 1.75× the text instead of 1.3× (1.40× with
//	   5-byte rows). Version 2 folders are converted in place by Rebuild
//	   from their own parts (legacyFolders): nothing is ingested again.
//	4  the folded text is textfold's second folding (issue 34): spaces
//	   next to Japanese, the long vowel ending a katakana word, old and
//	   variant kanji, variation selectors and ヶ/ヵ/ケ between kanji fold
//	   too, and a patch may stand for original bytes that fold to nothing
//	   (at a line's end too). Version 2 and 3 folders are converted in
//	   place by Rebuild (legacyFolders): their original text reads back
//	   from the patches, which need no folding, and is folded again.
const Version = 4

// WriteVersion is the version the encoder writes: Version, or 2 in
// tests that make version 2 folders for Rebuild to convert (version 2
// differs only in its 8-byte gram masks).
var WriteVersion = uint32(Version)

// File names inside a folder.
const (
	ManifestName = ".fumibako-index"
	partPrefix   = ManifestName + "."
	TmpSuffix    = ".tmp"
)

const (
	manifestMagic = "FUMIBAKI"
	partMagic     = "FUMIBAKP"

	manifestHeaderSize = 32 // magic 8, version 4, parts 4, files 4, names 4, reserved 4, crc 4
	manifestPartSize   = 40 // id 16, size 8, first file 4, first line 4, last file 4, end line 4
	manifestFileSize   = 56 // name off 4, name len 4, places 4, lines 4, text 8, folded 8, mtime 8, size 8, reserved 8
	manifestFileSizeV1 = 40 // version 1: name off 4, name len 4, places 4, lines 4, text 8, folded 8, reserved 8
	partHeaderSize     = 16 // magic 8, version 4, sections 4
	sectionEntrySize   = 12 // tag 4, offset 4, size 4
	segSize            = 24 // file 4, name off 4, name len 4, line no 4, first line 4, lines 4
	blockSize          = 20 // first line 4, patch off 4, patch len 4, raw len 4, flags 4
	maxSections        = 32
	IDSize             = 16 // bytes of SHA-256 that name a part
)

// Section tags of a part.
const (
	tagStrs      = 1
	tagFiles     = 2
	tagSegs      = 3
	tagLines     = 4
	tagBlock     = 5
	tagFold      = 6
	tagOrig      = 7
	tagGrams     = 8
	tagGramIndex = 9 // optional
	lastTag      = tagGramIndex
)

// GramIndexStep is the stride of the gram index: every GramIndexStep-th
// key of the gram section, so that a lookup touches one small run of keys.
const GramIndexStep = 128

// Sizes that shape parts. Variables so that tests, here and in the
// packages above (bodyindex, bodyindex/summary), can make small parts.
var (
	// BlockTarget closes a block once it holds this many folded bytes.
	BlockTarget = 64 << 10
	// MaxBlocks is the most blocks one part holds (one uint64 mask).
	MaxBlocks = 64
	// ChunkMax and ChunkMin bound the text bytes of whole files that
	// Publish's planner (package bodyindex) puts into one chunk of parts;
	// ChunkAnchor decides, from the file name alone, where a chunk may end
	// once it holds ChunkMin, so that a changed file moves only the
	// boundaries near it.
	//
	// A chunk is the unit of re-encoding: a changed file costs its chunk
	// (about 300 KB of text with files of 10–90 KB), where 3–4 MB chunks
	// re-encoded whole folders (1 % of 10 GB changed: 2 min 25 s, against
	// 58 s with these). Smaller chunks mean more parts, each repeating the
	// common keys in its gram section: 64 KB–512 KB chunks of about 210 KB
	// make the index 1.40× the text (128–256 KB: 1.45×; 3–4 MB: 1.25×).
	// The summary gives a column to a group of about 4 MB of parts
	// (package bodyindex/summary, groups.go), not to each part, so that
	// small parts do not thin its bits per key. The minimum is small and anchors are 1 file
	// in 4, so that almost every boundary is an anchor whatever the sizes
	// before it: a boundary moved by a file that grew, was added or was
	// removed meets the old ones again at the next anchor (with a 256 KB
	// minimum and 1 file in 2, a removal re-encoded up to 14 chunks of a
	// 100-file folder in simulation; here at most 4).
	ChunkMax    = 512 << 10
	ChunkMin    = 64 << 10
	ChunkAnchor = uint32(3) // end before a file whose name hash has these low bits 0
)

// partLimit is the largest part accepted by the reader (offsets are
// uint32).
const partLimit = 1<<31 - 1

// ErrMalformed is the cause of every malformed-index error.
var ErrMalformed = errors.New("bodyindex: malformed index")

// MalformedError is a malformed manifest or part: the path, what is wrong
// and where (byte offset).
type MalformedError struct {
	Path   string
	Offset int64
	What   string
}

func (e *MalformedError) Error() string {
	return fmt.Sprintf("bodyindex: %s: malformed at offset %d: %s", e.Path, e.Offset, e.What)
}

func (e *MalformedError) Unwrap() error { return ErrMalformed }

// ErrRebuild is the cause of every *RebuildError.
var ErrRebuild = errors.New("bodyindex: index needs a rebuild")

// RebuildError reports a folder whose body index this build cannot read:
// another format version (older or newer), or a manifest that is not
// fumibako's or is damaged. The folder must be rebuilt (Rebuild), never
// misread. Files lists the file names the manifest still names when its
// file table could be read, else nil.
type RebuildError struct {
	Dir     string
	Version int // the version found; 0 when unknown
	Files   []string
	Cause   error
}

func (e *RebuildError) Error() string {
	if e.Version != 0 && e.Version != Version {
		return fmt.Sprintf("bodyindex: %s: index format version %d, this build reads %d: rebuild needed", e.Dir, e.Version, Version)
	}
	if e.Cause != nil {
		return fmt.Sprintf("bodyindex: %s: unreadable index, rebuild needed: %v", e.Dir, e.Cause)
	}
	return fmt.Sprintf("bodyindex: %s: unreadable index, rebuild needed", e.Dir)
}

func (e *RebuildError) Unwrap() []error {
	if e.Cause != nil {
		return []error{ErrRebuild, e.Cause}
	}
	return []error{ErrRebuild}
}

// Castagnoli is made on first use (start-up of every command pays for
// package-level tables).
var Castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })
