package extract

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/richardlehane/mscfb"
)

// Tools for looking at differences by hand; they run only when their
// environment variable names files.

// TestDocPptDump prints the places the native readers give for the .doc
// and .ppt files named in FUMIBAKO_DUMP (a path list), and what the
// package readers give for .docx and .pptx (LibreOffice's conversions):
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
			read = readerFor(strings.ToLower(filepath.Ext(p)))
		}
		if read == nil {
			t.Errorf("%s: no reader for this extension", p)
			continue
		}
		res, err := read(context.Background(), p, Options{Scratch: t.TempDir()})
		t.Logf("== %s: err=%v", p, err)
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
// stream of the .ppt in FUMIBAKO_DUMP_PPT, with the texts, the persist and
// placeholder atoms, and the streams of embedded objects:
//
//	FUMIBAKO_DUMP_PPT=a.ppt go test ./internal/extract -run TestPptRecordDump -v
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
			case rtExOleObjStg:
				extra = dumpOLE(r)
			case rtSlidePersistAtom, rtOutlineTextRefAtom, rtTextHeaderAtom, rtPlaceholderAtom:
				extra = fmt.Sprintf("% x", r.data)
			}
			t.Logf("%s%#04x inst=%d len=%d @%d %s", strings.Repeat("  ", depth), r.typ, r.inst, len(r.data), base+off, extra)
			// recVer 0xF marks a container.
			if len(r.data) >= 8 && binary.LittleEndian.Uint16(data[off:])&0xF == 0xF {
				dump(r.data, base+off+8, depth+1)
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
		data, err = readAllLimited(zr, DefaultLimits.ZipPartBytes)
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
