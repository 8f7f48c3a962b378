// Package testcorpus generates deterministic sample folders of text and
// Office files with known content, for tests, benchmarks and `make demo`.
// Each generated file holds a token unique to it, so a test can search for
// every file it made. Nothing here is used by the fumibako binary.
package testcorpus

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"math/rand"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/japanese"
)

// File is one generated file.
type File struct {
	Rel   string // path under the generated root, `/` separators
	Token string // a string found in the file's text exactly once
}

var words = []string{"見積", "請求書", "納品", "契約", "議事録", "売上", "予算", "東京", "大阪", "顧客",
	"報告", "確認", "担当", "部長", "会議", "資料", "提案", "発注", "在庫", "出荷", "report", "budget", "invoice"}

// Generate writes n files under root: text files (UTF-8, Shift_JIS,
// UTF-16LE), .xlsx, .docx and .pptx, in nested folders, deterministic for
// a seed. It returns what it wrote.
func Generate(root string, n int, seed int64) ([]File, error) {
	rng := rand.New(rand.NewSource(seed))
	var out []File
	for i := 0; i < n; i++ {
		dir := fmt.Sprintf("部署%02d/%d年度", i%7, 2018+i%5)
		token := fmt.Sprintf("tok%05dx%d", i, rng.Intn(1000))
		body := sentence(rng, 6) + " " + token + " " + sentence(rng, 4)
		var rel string
		var err error
		switch i % 6 {
		case 0:
			rel = fmt.Sprintf("%s/メモ%04d.txt", dir, i)
			err = WriteText(filepath.Join(root, rel), "1行目 "+sentence(rng, 3)+"\n"+body+"\n最後の行\n", "utf-8")
		case 1:
			rel = fmt.Sprintf("%s/古いメモ%04d.csv", dir, i)
			err = WriteText(filepath.Join(root, rel), "番号,内容\r\n1,"+body+"\r\n", "shift_jis")
		case 2:
			rel = fmt.Sprintf("%s/見積%04d.xlsx", dir, i)
			err = WriteXlsx(filepath.Join(root, rel), map[string][][]string{
				"見積": {{"品名", "数量", "金額"}, {"部品A", "3", "1200"}, {body, "1", "500"}},
			})
		case 3:
			rel = fmt.Sprintf("%s/報告%04d.docx", dir, i)
			err = WriteDocx(filepath.Join(root, rel), []string{"報告書", sentence(rng, 5), body})
		case 4:
			rel = fmt.Sprintf("%s/提案%04d.pptx", dir, i)
			err = WritePptx(filepath.Join(root, rel), [][]string{{"提案", sentence(rng, 3)}, {body}})
		case 5:
			rel = fmt.Sprintf("%s/log%04d.log", dir, i)
			err = WriteText(filepath.Join(root, rel), "start\n"+body+"\nend\n", "utf-16le")
		}
		if err != nil {
			return nil, err
		}
		out = append(out, File{Rel: rel, Token: token})
	}
	return out, nil
}

func sentence(rng *rand.Rand, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = words[rng.Intn(len(words))]
	}
	return strings.Join(parts, "")
}

// WriteText writes s in the named encoding: utf-8, utf-8-bom, shift_jis or
// utf-16le (with BOM).
func WriteText(path, s, enc string) error {
	var data []byte
	switch enc {
	case "utf-8":
		data = []byte(s)
	case "utf-8-bom":
		data = append([]byte{0xEF, 0xBB, 0xBF}, s...)
	case "shift_jis":
		b, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(s))
		if err != nil {
			return err
		}
		data = b
	case "utf-16le":
		data = []byte{0xFF, 0xFE}
		for _, r := range s {
			if r > 0xFFFF {
				r = '?'
			}
			data = append(data, byte(r), byte(r>>8))
		}
	default:
		return fmt.Errorf("testcorpus: unknown encoding %q", enc)
	}
	return writeFile(path, data)
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// WriteXlsx writes a workbook with the given sheets (rows of cells; cells
// that parse as integers are written as numbers).
func WriteXlsx(path string, sheets map[string][][]string) error {
	f := excelize.NewFile()
	defer f.Close()
	first := true
	names := make([]string, 0, len(sheets))
	for name := range sheets {
		names = append(names, name)
	}
	for _, name := range sortStrings(names) {
		if first {
			f.SetSheetName("Sheet1", name)
			first = false
		} else if _, err := f.NewSheet(name); err != nil {
			return err
		}
		for r, row := range sheets[name] {
			for c, v := range row {
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				var n int
				if _, err := fmt.Sscanf(v, "%d", &n); err == nil && fmt.Sprint(n) == v {
					f.SetCellValue(name, cell, n)
				} else {
					f.SetCellValue(name, cell, v)
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return f.SaveAs(path)
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// WriteDocx writes a minimal Word document with one paragraph per string.
func WriteDocx(path string, paras []string) error {
	var body strings.Builder
	for _, p := range paras {
		fmt.Fprintf(&body, `<w:p><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>`, html.EscapeString(p))
	}
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() + `</w:body></w:document>`,
	}
	return writeZip(path, parts, []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml"})
}

// WritePptx writes a minimal presentation: one slide per entry, one
// paragraph per string.
func WritePptx(path string, slides [][]string) error {
	const pNS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	parts := map[string]string{}
	order := []string{"[Content_Types].xml", "_rels/.rels", "ppt/presentation.xml", "ppt/_rels/presentation.xml.rels"}
	var ids, rels, overrides strings.Builder
	for i, paras := range slides {
		n := i + 1
		fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId%d"/>`, 255+n, n)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide%d.xml"/>`, n, n)
		fmt.Fprintf(&overrides, `<Override PartName="/ppt/slides/slide%d.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`, n)
		var ps strings.Builder
		for _, p := range paras {
			fmt.Fprintf(&ps, `<a:p><a:r><a:t>%s</a:t></a:r></a:p>`, html.EscapeString(p))
		}
		name := fmt.Sprintf("ppt/slides/slide%d.xml", n)
		parts[name] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld ` + pNS + `><p:cSld><p:spTree><p:sp><p:txBody>` + ps.String() + `</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`
		order = append(order, name)
	}
	parts["[Content_Types].xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>` + overrides.String() + `</Types>`
	parts["_rels/.rels"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>`
	parts["ppt/presentation.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation ` + pNS + `><p:sldIdLst>` + ids.String() + `</p:sldIdLst></p:presentation>`
	parts["ppt/_rels/presentation.xml.rels"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels.String() + `</Relationships>`
	return writeZip(path, parts, order)
}

func writeZip(path string, parts map[string]string, order []string) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range order {
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		if _, err := w.Write([]byte(parts[name])); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return writeFile(path, buf.Bytes())
}
