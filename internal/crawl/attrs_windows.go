//go:build windows

package crawl

import (
	"io/fs"
	"syscall"
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
