package officeart

import (
	"encoding/binary"
)

// PropPictureID is the OfficeArt property pictureId: a Word shape's OLE
// storage number ([MS-ODRAW]).
const PropPictureID = 0x010B

// Property returns the value of property pid of an OfficeArtFOPT
// (recInstance properties of 6 bytes: 14-bit id and flags, 32-bit value).
func Property(opt Rec, pid uint16) (uint32, bool) {
	n := int(opt.Inst)
	for i := 0; i < n && 6*i+6 <= len(opt.Data); i++ {
		id := binary.LittleEndian.Uint16(opt.Data[6*i:]) & 0x3FFF
		if id == pid {
			return binary.LittleEndian.Uint32(opt.Data[6*i+2:]), true
		}
	}
	return 0, false
}
