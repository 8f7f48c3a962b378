package ppt

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/officeart"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/officefile/cfb"
)

// DumpRecords writes the record tree of the PowerPoint Document stream of
// the .ppt at path, with the texts, the persist and placeholder atoms, and
// the streams of embedded objects, for looking at a file by hand
// (tools/extractdump).
func DumpRecords(w io.Writer, path string) error {
	c, err := streams.Open(path, extract.DefaultLimits)
	if err != nil {
		return err
	}
	defer c.Close()
	b, err := c.Stream("PowerPoint Document")
	if err != nil {
		return err
	}
	var dump func(data []byte, base int64, depth int)
	dump = func(data []byte, base int64, depth int) {
		for off := int64(0); off+8 <= int64(len(data)); {
			r, err := officeart.RecordAt(data, off)
			if err != nil {
				fmt.Fprintf(w, "%s! %v\n", strings.Repeat("  ", depth), err)
				return
			}
			extra := ""
			switch r.Typ {
			case officeart.RtTextCharsAtom, officeart.RtTextBytesAtom, officeart.RtCString:
				extra = fmt.Sprintf("%q", officeart.String(r))
			case officeart.RtExOleObjStg:
				extra = dumpOLE(r)
			case officeart.RtSlidePersistAtom, officeart.RtOutlineTextRefAtom, officeart.RtTextHeaderAtom, officeart.RtPlaceholderAtom:
				extra = fmt.Sprintf("% x", r.Data)
			}
			fmt.Fprintf(w, "%s%#04x inst=%d len=%d @%d %s\n", strings.Repeat("  ", depth), r.Typ, r.Inst, len(r.Data), base+off, extra)
			// recVer 0xF marks a container.
			if len(r.Data) >= 8 && binary.LittleEndian.Uint16(data[off:])&0xF == 0xF {
				dump(r.Data, base+off+8, depth+1)
			}
			off += 8 + int64(len(r.Data))
		}
	}
	dump(b, 0, 0)
	return nil
}

// dumpOLE lists the streams of an ExOleObjStg's compound file.
func dumpOLE(r officeart.Rec) string {
	data := r.Data
	if r.Inst == 1 && len(data) > 4 {
		zr, err := zlib.NewReader(bytes.NewReader(data[4:]))
		if err != nil {
			return err.Error()
		}
		data, err = embed.ReadAllLimited(zr, extract.DefaultLimits.ZipPartBytes)
		if err != nil {
			return err.Error()
		}
	}
	cf, err := cfb.Open(bytes.NewReader(data), int64(len(data)))
	if err == nil {
		err = cf.Problem
	}
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, n := range cf.Nodes {
		e := &cf.Entries[n.ID]
		out = append(out, fmt.Sprintf("%s/%s(%d)", strings.Join(n.Path, "/"), e.Name(), cf.StreamSize(e)))
	}
	return strings.Join(out, " ")
}
