package extract

import (
	"bytes"
	"compress/zlib"
	"io"

	"github.com/richardlehane/mscfb"

	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocPptDump prints what the native readers and LibreOffice's
// conversion give for the files named in FUMIBAKO_DUMP (a path list), for
// looking at differences by hand:
//
//	FUMIBAKO_DUMP=a.doc:b.ppt go test ./internal/extract -run TestDocPptDump -v
func TestDocPptDump(t *testing.T) {
	list := os.Getenv("FUMIBAKO_DUMP")
	if list == "" {
		t.Skip("FUMIBAKO_DUMP not set")
	}
	for _, p := range filepath.SplitList(list) {
		var read Reader
		switch strings.ToLower(filepath.Ext(p)) {
		case ".doc":
			read = readDocNative
		case ".ppt":
			read = readPptNative
		default:
			read = readers[strings.ToLower(filepath.Ext(p))]
		}
		res, err := read(context.Background(), p, Options{Scratch: t.TempDir()})
		t.Logf("== native %s: err=%v", p, err)
		if res != nil {
			for _, pl := range res.Places {
				t.Logf("  [%s]", pl.Name)
				for _, l := range pl.Lines {
					t.Logf("    %q", l)
				}
			}
		}
	}
}

// TestPptRecordDump prints the record tree of the PowerPoint Document
// stream of the file in FUMIBAKO_DUMP_PPT, to FUMIBAKO_DUMP_DEPTH levels.
func TestPptRecordDump(t *testing.T) {
	p := os.Getenv("FUMIBAKO_DUMP_PPT")
	if p == "" {
		t.Skip("FUMIBAKO_DUMP_PPT not set")
	}
	c, err := openCompound(p, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, err := c.stream("PowerPoint Document")
	if err != nil {
		t.Fatal(err)
	}
	var dump func(data []byte, base int64, depth int)
	dump = func(data []byte, base int64, depth int) {
		for off := int64(0); off+8 <= int64(len(data)); {
			r, err := pptRecordAt(data, off)
			if err != nil {
				t.Logf("%s! %v", strings.Repeat("  ", depth), err)
				return
			}
			extra := ""
			switch r.typ {
			case rtTextCharsAtom, rtTextBytesAtom, rtCString:
				extra = fmt.Sprintf("%q", pptString(r))
			case 0x1011:
				extra = dumpOLE(r)
			case rtSlidePersistAtom, rtOutlineTextRefAtom, rtTextHeaderAtom, rtPlaceholderAtom:
				extra = fmt.Sprintf("% x", r.data)
			}
			t.Logf("%s%#04x inst=%d len=%d @%d %s", strings.Repeat("  ", depth), r.typ, r.inst, len(r.data), base+off, extra)
			if len(r.data) >= 8 && (r.typ < 0x0F00 || r.typ >= 0xF000 || r.typ == rtSlideListWithText || r.typ == rtHeadersFooters || r.typ == rtComment10 || r.typ == 0x1388 || r.typ == 0x138A || r.typ == 0x2EE0) && !(r.typ >= 0x0F9E && r.typ <= 0x0FA8) {
				if b := binary.LittleEndian.Uint16(data[off:]); b&0xF == 0xF {
					dump(r.data, base+off+8, depth+1)
				}
			}
			off += 8 + int64(len(r.data))
		}
	}
	dump(b, 0, 0)
}

// dumpOLE lists the streams of an ExOleObjStg's compound file.
func dumpOLE(r pptRec) string {
	data := r.data
	if r.inst == 1 && len(data) > 4 {
		zr, err := zlib.NewReader(bytes.NewReader(data[4:]))
		if err != nil {
			return err.Error()
		}
		data, err = io.ReadAll(zr)
		if err != nil {
			return err.Error()
		}
	}
	cf, err := mscfb.New(bytes.NewReader(data))
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, f := range cf.File {
		out = append(out, fmt.Sprintf("%s/%s(%d)", strings.Join(f.Path, "/"), f.Name, f.Size))
	}
	return strings.Join(out, " ")
}
