package format

import "encoding/binary"

// maskWidth is the bytes of one block mask in a part of blocks blocks:
// the fewest of 1, 2, 4 or 8 that hold a bit per block. Small parts keep
// their gram table small this way: a key costs 4 bytes plus its mask, and
// a part of 8 blocks or fewer pays 5 bytes per key instead of 12.
func maskWidth(blocks int) int {
	switch {
	case blocks <= 8:
		return 1
	case blocks <= 16:
		return 2
	case blocks <= 32:
		return 4
	}
	return 8
}

// getMask reads a w-byte little-endian mask.
func getMask(src []byte, w int) uint64 {
	le := binary.LittleEndian
	switch w {
	case 1:
		return uint64(src[0])
	case 2:
		return uint64(le.Uint16(src))
	case 4:
		return uint64(le.Uint32(src))
	}
	return le.Uint64(src)
}

// gramRowMin is the fewest bytes a key takes in a gram section: the key
// and a 1-byte mask (a part of 8 blocks or fewer). It bounds the key count
// that a section's size allows.
const gramRowMin = 4 + 1
