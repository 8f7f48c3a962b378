package libreoffice

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/officefile"
)

// Legacy formats .xls .xlsb .doc .ppt (reference/extraction.md §5.1, §7.3,
// §8.3, §10; DESIGN.md "Extraction").
//
// The file is classified before anything is started (package officefile):
//
//	Password, Rights        fail with MsgPassword / MsgRights; LibreOffice
//	                        is never started
//	ZIP                     an OOXML package under a legacy name: read by
//	                        the OOXML reader of its family (.xlsx, .docx,
//	                        .pptx); a real .xlsb (xl/workbook.bin) is
//	                        converted
//	Text (no NUL)           .xls/.xlsb: HTML, CSV or text saved under an
//	                        Excel name, read by the text reader, MsgCorrupt
//	                        when it does not decode; .doc: RTF, HTML or text,
//	                        converted as Word would open it; .ppt:
//	                        MsgNotPowerPoint
//	Unknown (NUL)           MsgCorrupt: a binary of no known format
//	                        carries no sign of encryption (random bytes, a
//	                        file cut off before its signature; the reference
//	                        said MsgEncryptedOrBad, issue 16); a bare Excel
//	                        2.x–4.x BIFF stream under .xls is read by the
//	                        native reader (3.0/4.0 worksheets) or converted
//	Legacy (any other CFB)  converted; MsgCorrupt when LibreOffice could
//	                        not open its container (below)
//
// Conversion: a compound file whose container LibreOffice cannot open
// fails with MsgCorrupt first (precheck.go: LibreOffice would import
// its bytes as text). The file is copied into the scratch folder as
// source.<ext> and converted by LibreOffice (convert.go) to the OOXML
// format of its family, chosen by the CFB's root stream (Workbook,
// WordDocument, PowerPoint Document) and else by the extension; an Excel
// workbook is read with Calc's Excel filter forced. The output must start
// with the ZIP signature (otherwise a transparent-encryption product
// encrypted it: MsgConvertedEncrypted, §10 testOfficeOutput) and is read by
// the OOXML reader of that family, so places and place TSVs are the same as
// for the new formats. No output at all is MsgCorrupt. LibreOffice not
// installed: *Postponed with MsgNoLibreOffice (DESIGN.md), except for a
// damaged container, which fails as above without it.
//
// The extension of path decides the family; when path is a copy under
// another name (no legacy extension), the content does.

// MsgConvertedEncrypted is the failure when the converted file is not a
// ZIP package (reference/extraction.md §10, testOfficeOutput; 取り込み
// wording).
const MsgConvertedEncrypted = "ファイルを暗号化する製品が一時ファイルを暗号化したため取り込めません。"

// protectionLog is the log line of §10 for Password and Rights,
// with the kinds in words users read instead of the reference's English
// names (issue 17).
const protectionLog = "    暗号化の判定: "

var protectionWords = map[officefile.Protection]string{
	officefile.Password: "パスワード付き",
	officefile.Rights:   "権限の保護（IRM・秘密度ラベル）付き",
}

func init() {
	extract.RegisterFormat(extract.Format{Name: "libreoffice", Extensions: []string{".xls", ".xlsb", ".doc", ".ppt"}, Read: readLegacy, Fallback: true})
}

// target maps a legacy extension to the OOXML extension it is read
// as.
var target = map[string]string{".xls": "xlsx", ".xlsb": "xlsx", ".doc": "docx", ".ppt": "pptx"}

var programExt = map[string]string{
	officefile.ProgramExcel:      ".xls",
	officefile.ProgramWord:       ".doc",
	officefile.ProgramPowerPoint: ".ppt",
}

func readLegacy(ctx context.Context, path string, opt extract.Options) (*extract.Result, error) {
	return ReadLegacyWith(ctx, path, opt, extract.NativeReaders())
}

// ReadLegacyWith is readLegacy with the native readers to try before
// LibreOffice (tests pass none to exercise the conversion).
func ReadLegacyWith(ctx context.Context, path string, opt extract.Options, native map[string]extract.Reader) (*extract.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, size, err := extract.OpenSized(path)
	if err != nil {
		return nil, err
	}
	d, err := officefile.Detect(f, size)
	head := make([]byte, 8)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	var zipNames map[string]bool
	if err == nil && d.Format == officefile.FormatZIP {
		zipNames = zipEntryNames(f, size, opt.ResolvedLimits().ZipEntries)
	}
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("extract: %s: %w", path, err)
	}

	ext := strings.ToLower(filepath.Ext(path))
	if _, ok := target[ext]; !ok {
		ext = extFromContent(d, zipNames)
	}
	protected := func(msg string) error {
		return &extract.Error{Msg: msg, Cause: fmt.Errorf("extract: %s: %s", path, d.Reason),
			Log: []string{protectionLog + protectionWords[d.Protection]}}
	}
	switch d.Protection {
	case officefile.Password:
		return nil, protected(extract.MsgPassword)
	case officefile.Rights:
		return nil, protected(extract.MsgRights)
	case officefile.None:
		if zipNames["xl/workbook.bin"] && !zipNames["xl/workbook.xml"] {
			return nativeOrConvert(ctx, path, ".xlsb", "xlsx", opt, native)
		}
		target := target[ext]
		switch {
		case zipNames["xl/workbook.xml"]:
			target = "xlsx"
		case zipNames["word/document.xml"]:
			target = "docx"
		case zipNames["ppt/presentation.xml"]:
			target = "pptx"
		}
		if target == "" {
			return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: %s: a ZIP that is no Office package", path))
		}
		return readOOXML(ctx, path, target, opt)
	case officefile.Text:
		switch ext {
		case ".ppt":
			return nil, extract.Fail(extract.MsgNotPowerPoint, fmt.Errorf("extract: %s: neither ZIP nor compound file", path))
		case ".doc":
			return convertLegacy(ctx, path, ".doc", "docx", opt)
		}
		res, err := extract.ReaderFor(".txt")(ctx, path, opt)
		var e *extract.Error
		if errors.As(err, &e) && e.Msg == extract.MsgNotText {
			return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: %s: neither a workbook nor readable text: %w", path, err))
		}
		return res, err
	case officefile.Unknown:
		if ext == ".xls" && officefile.IsBIFFStream(head) {
			return nativeOrConvert(ctx, path, ".xls", "xlsx", opt, native)
		}
		return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: %s: %s", path, d.Reason))
	}
	// Legacy: a compound file.
	if p, ok := programExt[d.Program]; ok {
		ext = p
	}
	target, ok := target[ext]
	if !ok {
		return nil, extract.Fail(extract.MsgCorrupt, fmt.Errorf("extract: %s: compound file of no known Office program", path))
	}
	return nativeOrConvert(ctx, path, ext, target, opt, native)
}

// nativeOrConvert tries the native reader of ext, if any, and converts with
// LibreOffice when it fails with anything but encryption (native.go).
func nativeOrConvert(ctx context.Context, path, ext, target string, opt extract.Options, native map[string]extract.Reader) (*extract.Result, error) {
	nr := native[ext]
	if nr == nil {
		return convertLegacy(ctx, path, ext, target, opt)
	}
	res, err := nr(ctx, path, opt)
	if err == nil {
		return res, nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	var e *extract.Error
	if errors.As(err, &e) && (e.Msg == extract.MsgPassword || e.Msg == extract.MsgRights) {
		return nil, err
	}
	var p *extract.Postponed
	if errors.As(err, &p) {
		return nil, err
	}
	return convertLegacy(ctx, path, ext, target, opt)
}

// extFromContent is the legacy extension a file's content suggests, for a
// path without one.
func extFromContent(d officefile.Detection, zipNames map[string]bool) string {
	if e, ok := programExt[d.Program]; ok {
		return e
	}
	switch {
	case zipNames["xl/workbook.bin"]:
		return ".xlsb"
	case zipNames["xl/workbook.xml"]:
		return ".xls"
	case zipNames["word/document.xml"]:
		return ".doc"
	case zipNames["ppt/presentation.xml"]:
		return ".ppt"
	}
	return ""
}

// zipEntryNames lists the entry names of a ZIP (nil when it is unreadable or
// has more than max entries; the OOXML reader reports those).
func zipEntryNames(r io.ReaderAt, size int64, max int) map[string]bool {
	z, err := zip.NewReader(r, size)
	if err != nil || len(z.File) > max {
		return nil
	}
	m := make(map[string]bool, len(z.File))
	for _, f := range z.File {
		m[strings.ToLower(f.Name)] = true
	}
	return m
}

// convertLegacy checks path (precheck.go: a damaged compound file
// fails here, an Excel workbook gets Calc's Excel filter forced), copies it
// into the scratch folder as source<ext>, converts it to target with
// LibreOffice and reads the result.
func convertLegacy(ctx context.Context, path, ext, target string, opt extract.Options) (*extract.Result, error) {
	infilter, err := precheck(path, target)
	if err != nil {
		return nil, err
	}
	soffice, err := find()
	if err != nil {
		return nil, &extract.Postponed{Msg: extract.MsgNoLibreOffice}
	}
	if opt.Scratch == "" {
		return nil, fmt.Errorf("extract: converting %s needs a scratch folder", path)
	}
	in := filepath.Join(opt.Scratch, "lo-in")
	out := filepath.Join(opt.Scratch, "lo-out")
	for _, d := range []string{in, out} {
		if err := os.RemoveAll(d); err != nil {
			return nil, fmt.Errorf("extract: clear %s: %w", d, err)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("extract: create %s: %w", d, err)
		}
	}
	name := "source" + ext
	if err := Copy(path, filepath.Join(in, name)); err != nil {
		return nil, err
	}
	printed, err := convert(ctx, soffice, in, name, target, infilter, out, filepath.Join(opt.Scratch, Profile))
	if err != nil {
		return nil, err
	}
	conv := filepath.Join(out, "source."+target)
	if st, err := os.Stat(conv); err != nil || !st.Mode().IsRegular() {
		cause := &failure{output: printed}
		return nil, &extract.Error{Msg: extract.MsgCorrupt, Cause: fmt.Errorf("extract: convert %s: %w", path, cause),
			Log: []string{"    LibreOffice で変換できませんでした: " + cause.Error()}}
	}
	return ReadConverted(ctx, conv, target, opt)
}

// ReadConverted reads a file LibreOffice converted to target ("xlsx",
// "docx" or "pptx"), from convertLegacy or ConvertBatch: it must start with
// the ZIP signature (else MsgConvertedEncrypted) and is read by the OOXML
// reader of target with a scratch folder of its own inside opt.Scratch.
func ReadConverted(ctx context.Context, path, target string, opt extract.Options) (*extract.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("extract: open converted file: %w", err)
	}
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if !bytes.Equal(head[:n], []byte("PK\x03\x04")) {
		return nil, extract.Fail(MsgConvertedEncrypted, fmt.Errorf("extract: converted file %s does not start with a ZIP signature", path))
	}
	r := extract.ReaderFor("." + target)
	if r == nil {
		return nil, fmt.Errorf("extract: no reader for .%s", target)
	}
	sub := opt
	if opt.Scratch != "" {
		sub.Scratch = filepath.Join(opt.Scratch, "ooxml")
		if err := os.MkdirAll(sub.Scratch, 0o755); err != nil {
			return nil, fmt.Errorf("extract: create scratch: %w", err)
		}
	}
	return r(ctx, path, sub)
}

// readOOXML reads a ZIP package under a legacy name with the reader of
// target.
func readOOXML(ctx context.Context, path, target string, opt extract.Options) (*extract.Result, error) {
	r := extract.ReaderFor("." + target)
	if r == nil {
		return nil, fmt.Errorf("extract: no reader for .%s", target)
	}
	return r(ctx, path, opt)
}
