//go:build windows

package crawl

import (
	"io/fs"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"
)

// File attributes that mark cloud-only placeholders (OneDrive / SharePoint
// files on demand and other cloud-filter sync clients).
const (
	attrOffline            = 0x00001000 // FILE_ATTRIBUTE_OFFLINE
	attrRecallOnOpen       = 0x00040000 // FILE_ATTRIBUTE_RECALL_ON_OPEN
	attrRecallOnDataAccess = 0x00400000 // FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS
)

// OSAttributes reads the Windows file attributes from the directory listing
// (no open, so nothing is recalled from the cloud).
func OSAttributes() Attributes { return winAttrs{} }

type winAttrs struct{}

func attrsOf(info fs.FileInfo) uint32 {
	if d, ok := info.Sys().(*syscall.Win32FileAttributeData); ok {
		return d.FileAttributes
	}
	return 0
}

func (winAttrs) Hidden(_ string, info fs.FileInfo) bool {
	return attrsOf(info)&(syscall.FILE_ATTRIBUTE_HIDDEN|syscall.FILE_ATTRIBUTE_SYSTEM) != 0
}

func (winAttrs) CloudOnly(_ string, info fs.FileInfo) bool {
	return attrsOf(info)&(attrOffline|attrRecallOnOpen|attrRecallOnDataAccess) != 0
}

// ReparsePoint reads the tag from the folder listing (FindFirstFile's
// dwReserved0), which, unlike opening the file, never recalls a cloud file.
func (winAttrs) ReparsePoint(path string, info fs.FileInfo) (Reparse, bool) {
	a := attrsOf(info)
	if a&attrReparsePoint == 0 {
		return Reparse{}, false
	}
	p, err := windows.UTF16PtrFromString(longPath(path))
	if err != nil {
		return Reparse{}, false
	}
	var fd windows.Win32finddata
	h, err := windows.FindFirstFile(p, &fd)
	if err != nil {
		return Reparse{}, false
	}
	windows.FindClose(h)
	return Reparse{Tag: fd.Reserved0, Dir: a&attrDirectory != 0}, true
}

// longPath gives an absolute path past MAX_PATH the \\?\ prefix that the
// Win32 API needs for it (os does the same for its own calls).
func longPath(p string) string {
	if len(p) < 248 || strings.HasPrefix(p, `\\?\`) {
		return p
	}
	if rest, ok := strings.CutPrefix(p, `\\`); ok {
		return `\\?\UNC\` + rest
	}
	return `\\?\` + p
}
