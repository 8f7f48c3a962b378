package doc

import (
	"github.com/fumibako/fumibako/internal/extract/internal/officeart"
)

// docShapeObjects maps the shape ids of floating OLE objects to their
// ObjectPool storage numbers: the OfficeArtContent at fcDggInfo
// ([MS-DOC] 2.9.172) holds the drawings, whose shapes carry the storage
// number in the pictureId property (0x010B, [MS-ODRAW] 2.3.23.?).
func docShapeObjects(fib *fib, table []byte) map[uint32]uint32 {
	out := map[uint32]uint32{}
	b := fib.blob(table, fcDggInfo)
	dgg, err := officeart.RecordAt(b, 0)
	if err != nil {
		return out
	}
	// Then each drawing: a dgglbl byte and an OfficeArtDgContainer.
	for off, i := int64(8+len(dgg.Data)), 0; off+9 <= int64(len(b)) && i < 64; i++ {
		dg, err := officeart.RecordAt(b, off+1)
		if err != nil {
			break
		}
		off += 9 + int64(len(dg.Data))
		dg.Find(officeart.RtOfficeArtSp, func(sp officeart.Rec) {
			var spid, pic uint32
			var ok bool
			for _, c := range sp.Children() {
				switch c.Typ {
				case officeart.RtOfficeArtFSP:
					spid = c.U32(0)
				case officeart.RtOfficeArtFOPT, officeart.RtOfficeArtFOPT2, officeart.RtOfficeArtFOPT3:
					if v, found := officeart.Property(c, officeart.PropPictureID); found {
						pic, ok = v, true
					}
				}
			}
			if ok && len(out) < maxEmbeds {
				out[spid] = pic
			}
		})
	}
	return out
}
