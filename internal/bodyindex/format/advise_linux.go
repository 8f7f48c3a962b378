//go:build linux

package format

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A search reads a few pages of each part it opens: the block table, a
// few gram lookups, the blocks whose keys match. Linux reads ahead around
// a page fault of a mapping by the device's read-ahead size, 128 KiB by
// default and several MiB on many virtual disks (8 MiB on the development
// VM), so a cold search read whole parts it touched once: 21 MB for a
// rare word in 100 MB of text. adviseRandom turns that off for a search's
// mappings, and willNeed asks for the ranges a search is about to read in
// one request each (a block's folded text, its patches), so that a cold
// block costs one read, not a fault per page.

// adviseRandom disables read-around for the mapping data.
func adviseRandom(data []byte) { advise(data, unix.MADV_RANDOM) }

// willNeed starts reading the pages of b (part of a mapping) into the
// page cache.
func willNeed(b []byte) { advise(b, unix.MADV_WILLNEED) }

func advise(b []byte, advice int) {
	if len(b) == 0 {
		return
	}
	page := uintptr(syscall.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	end := start + uintptr(len(b))
	start &^= page - 1
	// Errors are ignored: advice only changes how fast pages come in (a
	// heap slice in tests is advised as harmlessly).
	syscall.Syscall(syscall.SYS_MADVISE, start, end-start, uintptr(advice))
}
