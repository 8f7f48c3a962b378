package crawl

import "io/fs"

// Reparse points (Windows). Since Go 1.23 os reports every reparse point
// that is neither a symbolic link nor a deduplicated file as
// fs.ModeIrregular (golang/go#61893), and a mount point (junction) without
// ModeDir, so the crawl asks for the tag of such entries and classifies
// them here; this file has no build tag so the rules are tested on every OS.
const (
	attrReparsePoint = 0x00000400 // FILE_ATTRIBUTE_REPARSE_POINT
	attrDirectory    = 0x00000010 // FILE_ATTRIBUTE_DIRECTORY

	tagNameSurrogate = 0x20000000 // the tag's "name surrogate" bit: a link to another name
	tagCloud         = 0x9000001A // IO_REPARSE_TAG_CLOUD; IO_REPARSE_TAG_CLOUD_1..F set bits 12-15
	tagCloudMask     = 0xFFFF0FFF
	tagMountPoint    = 0xA0000003 // IO_REPARSE_TAG_MOUNT_POINT (junctions, mounted volumes)
	tagSymlink       = 0xA000000C // IO_REPARSE_TAG_SYMLINK
	tagDedup         = 0x80000013 // IO_REPARSE_TAG_DEDUP (Windows Server Data Deduplication)
	tagAFUnix        = 0x80000023 // IO_REPARSE_TAG_AF_UNIX (a socket)
	tagLXFifo        = 0x80000024 // IO_REPARSE_TAG_LX_FIFO, _CHR, _BLK: WSL special files
	tagLXBlk         = 0x80000026
)

// Reparse is what the folder listing says about a reparse point: its tag
// and whether it stands for a folder (FILE_ATTRIBUTE_DIRECTORY).
type Reparse struct {
	Tag uint32
	Dir bool
}

// entryKind is how the crawl treats one folder entry.
type entryKind int

const (
	kindOther entryKind = iota // not a file (device, socket, …): left out silently
	kindFile                   // an ordinary file (cloud-only or not: Attributes.CloudOnly decides)
	kindDir                    // a folder to enter
	kindLink                   // a symbolic link or junction: never followed, logged
)

// classify decides an entry's kind from its mode and, for an entry that is
// not plainly a file, folder or symlink, its reparse point (ok false when it
// is none, as on Linux and macOS).
//
//   - cloud files (IO_REPARSE_TAG_CLOUD*, OneDrive / SharePoint files on
//     demand, downloaded or not) are files: Attributes.CloudOnly, which reads
//     attributes only, decides whether one is a placeholder that must not be
//     opened;
//   - name surrogates (symlinks, junctions, other links) are links;
//   - sockets and WSL special files are not files;
//   - every other tag (deduplicated, compressed by WOF, HSM, …) marks an
//     ordinary file or folder whose data reads as usual.
func classify(mode fs.FileMode, rp Reparse, ok bool) entryKind {
	switch {
	case mode.IsDir():
		return kindDir
	case mode&fs.ModeSymlink != 0:
		return kindLink
	case mode.IsRegular():
		return kindFile
	case !ok:
		return kindOther
	}
	switch t := rp.Tag; {
	case t&tagCloudMask == tagCloud:
		if rp.Dir {
			return kindDir
		}
		return kindFile
	case t&tagNameSurrogate != 0:
		return kindLink
	case t == tagAFUnix, t >= tagLXFifo && t <= tagLXBlk:
		return kindOther
	case rp.Dir:
		return kindDir
	}
	return kindFile
}
