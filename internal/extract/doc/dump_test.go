package doc

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

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/cfb"
	"github.com/fumibako/fumibako/internal/extract/internal/embed"
	"github.com/fumibako/fumibako/internal/extract/internal/officeart"
	"github.com/fumibako/fumibako/internal/extract/ppt"
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
		var read extract.Reader
		switch strings.ToLower(filepath.Ext(p)) {
		case ".doc":
			read = readDocNative
		case ".ppt":
			read = ppt.ReadPptNative
		default:
			read = extract.ReaderFor(strings.ToLower(filepath.Ext(p)))
		}
		if read == nil {
			t.Errorf("%s: no reader for this extension", p)
			continue
		}
		res, err := read(context.Background(), p, extract.Options{Scratch: t.TempDir()})
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
	c, err := cfb.OpenCompound(p, extract.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, err := c.Stream("PowerPoint Document")
	if err != nil {
		t.Fatal(err)
	}
	var dump func(data []byte, base int64, depth int)
	dump = func(data []byte, base int64, depth int) {
		for off := int64(0); off+8 <= int64(len(data)); {
			r, err := officeart.RecordAt(data, off)
			if err != nil {
				t.Logf("%s! %v", strings.Repeat("  ", depth), err)
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
			t.Logf("%s%#04x inst=%d len=%d @%d %s", strings.Repeat("  ", depth), r.Typ, r.Inst, len(r.Data), base+off, extra)
			// recVer 0xF marks a container.
			if len(r.Data) >= 8 && binary.LittleEndian.Uint16(data[off:])&0xF == 0xF {
				dump(r.Data, base+off+8, depth+1)
			}
			off += 8 + int64(len(r.Data))
		}
	}
	dump(b, 0, 0)
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
