package ooxml

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/testutil"
)

// readLinesStd is ReadLines over encoding/xml, as it read parts before
// xmlscan: the same line reader fed by Decoder.
func readLinesStd(r io.Reader, opt LineOptions) (*xmlLines, error) {
	d := NewDecoder(r, opt.Depth)
	lr := newLineReader(opt)
	var root xml.StartElement
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if root.Name.Local == "" {
				return nil, errors.New("no root element")
			}
			x := lr.result()
			x.Root = root
			return x, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root.Name.Local == "" {
				root = t.Copy()
			}
			err = lr.start(d, stdTag(&t))
		case xml.EndElement:
			lr.end()
		case xml.CharData:
			lr.text(t)
		}
		if err != nil {
			return nil, err
		}
	}
}

// renderLines writes what ReadLines returns, one field per line, so
// that two results compare as strings.
func renderLines(x *xmlLines) string {
	var b strings.Builder
	fmt.Fprintf(&b, "root %q %q rendered %v setup %+v\n", x.Root.Name.Space, x.Root.Name.Local, x.Rendered, x.Setup)
	for _, a := range x.Root.Attr {
		fmt.Fprintf(&b, "attr %q %q = %q\n", a.Name.Space, a.Name.Local, a.Value)
	}
	for _, l := range x.Lines {
		fmt.Fprintf(&b, "line %q page %d ph %q blank %d\n", l.Text, l.Page, l.Ph, l.Blank)
	}
	for _, o := range x.Objects {
		fmt.Fprintf(&b, "object %d %q %q page %d ph %q line %d\n", o.Kind, o.ID, o.Text, o.Page, o.Ph, o.Line)
	}
	return b.String()
}

var parityOptions = []LineOptions{{}, {Pages: true, Boxes: true, Objects: true}, {Objects: true}}

// lenientOK reports whether the scanner may refuse data that encoding/xml
// reads: what xmlscan.Scanner documents it refuses (DTDs and other <!
// markup, UTF-16).
func lenientOK(data []byte) bool {
	return bytes.Contains(data, []byte("<!")) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF})
}

// compareLines reads data both ways. Where encoding/xml reads it, the
// scanner must give the same result (or refuse what it documents); where
// both read it, the results must be equal. It reports whether the
// scanner read a part that encoding/xml refused.
func compareLines(t *testing.T, name string, data []byte, opt LineOptions) (laxer bool) {
	t.Helper()
	got, gerr := ReadLines(bytes.NewReader(data), opt)
	want, werr := readLinesStd(bytes.NewReader(data), opt)
	switch {
	case gerr == nil && werr == nil:
		if g, w := renderLines(got), renderLines(want); g != w {
			t.Errorf("%s %+v: xmlscan read\n%s\nencoding/xml read\n%s", name, opt, g, w)
		}
	case gerr != nil && werr == nil:
		if !lenientOK(data) {
			t.Errorf("%s %+v: xmlscan failed (%v) where encoding/xml read it", name, opt, gerr)
		}
	case gerr == nil && werr != nil:
		return true
	}
	return false
}

// TestReadLinesMatchesEncodingXML reads every XML part of the shared
// corpus's Word, PowerPoint and Excel packages and of the fixtures with
// ReadLines and with the same line reader over encoding/xml.
func TestReadLinesMatchesEncodingXML(t *testing.T) {
	type pkg struct {
		name string
		data []byte
	}
	var pkgs []pkg
	for i, s := range parityParts {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		w, _ := zw.Create(fmt.Sprintf("part%d.xml", i))
		io.WriteString(w, s)
		zw.Close()
		pkgs = append(pkgs, pkg{"written", b.Bytes()})
	}
	// FUMIBAKO_XML_PARITY_DIR names another folder of packages to
	// compare, such as bench/small-files.sh's Office tree.
	dirs := []string{testutil.CorpusDir(t), os.Getenv("FUMIBAKO_XML_PARITY_DIR")}
	if dirs[1] == "" {
		dirs = dirs[:1]
	}
	for i, dir := range dirs {
		root, err := filepath.EvalSymlinks(dir)
		if err != nil {
			if i == 0 {
				t.Log("the shared corpus is not here: only the written parts are compared")
			}
			continue
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".docx", ".docm", ".dotx", ".xlsx", ".xlsm", ".pptx", ".pptm", ".potx", ".ppsx":
				if info, err := d.Info(); err == nil && info.Size() <= 32<<20 {
					if data, err := os.ReadFile(p); err == nil {
						pkgs = append(pkgs, pkg{p, data})
					}
				}
			}
			return nil
		})
	}
	parts, laxer, rels := 0, 0, 0
	for _, p := range pkgs {
		rels += compareRels(t, p.name, p.data)
		zr, err := zip.NewReader(bytes.NewReader(p.data), int64(len(p.data)))
		if err != nil {
			continue // not a package: the readers' own tests cover it
		}
		for _, f := range zr.File {
			if !strings.HasSuffix(f.Name, ".xml") || f.UncompressedSize64 > 64<<20 {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				continue
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				continue
			}
			parts++
			for _, opt := range parityOptions {
				if compareLines(t, p.name+":"+f.Name, data, opt) {
					laxer++
				}
			}
		}
	}
	t.Logf("%d packages, %d XML parts compared; xmlscan read %d (part, options) that encoding/xml refused; %d relationship parts compared", len(pkgs), parts, laxer, rels)
}

// compareRels reads the relationships of every part of a package with
// RelsOf (xmlscan) and with EachStart (encoding/xml), and returns how many
// relationship parts it compared.
func compareRels(t *testing.T, name string, data []byte) int {
	t.Helper()
	lim := extract.DefaultLimits
	pkg, err := NewPackage(bytes.NewReader(data), int64(len(data)), lim, &Budget{Max: lim.ZipTotalBytes})
	if err != nil {
		return 0
	}
	n := 0
	for _, part := range pkg.PartNames() {
		dir, base := path.Split(part)
		if !strings.HasSuffix(dir, "_rels/") || !strings.HasSuffix(base, ".rels") {
			continue
		}
		owner := strings.TrimSuffix(dir, "_rels/") + strings.TrimSuffix(base, ".rels")
		got, gerr := pkg.RelsOf(owner)
		want := map[string]Rel{}
		werr := pkg.EachStart(part, func(_ *Decoder, se xml.StartElement) error {
			id, mode := Attr(se, "Id"), Attr(se, "TargetMode")
			if se.Name.Local != "Relationship" || id == "" || strings.EqualFold(mode, "External") {
				return nil
			}
			if _, dup := want[id]; !dup {
				want[id] = Rel{Type: Attr(se, "Type"), Target: ResolveTarget(strings.TrimSuffix(dir, "_rels/"), Attr(se, "Target"))}
			}
			return nil
		})
		n++
		switch {
		case gerr == nil && werr == nil:
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s:%s: RelsOf = %v, encoding/xml read %v", name, part, got, want)
			}
		case gerr != nil && werr == nil:
			t.Errorf("%s:%s: RelsOf failed (%v) where encoding/xml read it", name, part, gerr)
		}
	}
	return n
}

// FuzzReadLines holds ReadLines over xmlscan to the line reader over
// encoding/xml (compareLines).
func FuzzReadLines(f *testing.F) {
	for _, s := range parityParts {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range parityOptions {
			compareLines(t, "fuzz", data, opt)
		}
	})
}

// parityParts are written parts of the shapes ReadLines reads: Word
// bodies with breaks, alternate content and section properties, a slide
// with a placeholder and a chart, a default namespace, text with line
// ends, CDATA and references.
var parityParts = []string{
	`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body><w:p><w:r><w:t>a</w:t><w:tab/><w:br w:type="page"/><w:t>b&amp;c</w:t></w:r></w:p><mc:AlternateContent><mc:Choice><w:p><w:r><w:t>x</w:t></w:r></w:p></mc:Choice><mc:Fallback><w:p><w:r><w:t>y</w:t></w:r></w:p></mc:Fallback></mc:AlternateContent><w:p><w:pPr><w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr></w:p></w:body></w:document>`,
	`<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" show="0"><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:rPr lang="ja"/><a:t>進捗</a:t></a:r><a:br/><a:r><a:t>予算</a:t></a:r></a:p></p:txBody></p:sp><p:graphicFrame><a:graphic><a:graphicData><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId2"/></a:graphicData></a:graphic></p:graphicFrame></p:spTree></p:cSld></p:sld>`,
	`<document xmlns="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><body><p><r><t>default space</t></r></p><tbl><tr><tc><p><r><t>c1</t></r></p></tc><tc><p/></tc></tr></tbl></body></document>`,
	"<a:p xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\"><a:t>x\r\ny<![CDATA[<z>]]>&#x3042;</a:t></a:p>",
	`<w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:r="http://purl.oclc.org/ooxml/officeDocument/relationships"><w:body><w:p><w:pPr><w:pageBreakBefore/></w:pPr><w:r><w:lastRenderedPageBreak/><w:t xml:space="preserve"> strict </w:t><w:commentReference w:id="3"/><w:noBreakHyphen/></w:r><w:r><w:pict><v:textbox><w:txbxContent><w:p><w:r><w:t>box</w:t></w:r></w:p></w:txbxContent></v:textbox></w:pict><w:object><o:OLEObject Type="Embed" r:id="rId7"/></w:object></w:r></w:p><w:p><w:r><w:delText>gone</w:delText><w:t>kept</w:t></w:r></w:p></w:body></w:document>`,
}
