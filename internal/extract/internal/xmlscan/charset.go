package xmlscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// ErrDTD is returned for any DOCTYPE: no OOXML part has one, and refusing
// them shuts out entity tricks (reference/extraction.md §13). With
// ooxml.Decoder.BareDoctype, only a DOCTYPE with an internal subset is refused.
var ErrDTD = errors.New("extract: XML with a DTD refused")

// CharsetReader decodes a part whose XML declaration names another encoding
// than UTF-8 (some Japanese tools write Shift_JIS), by its label. The
// labels are those of the encodings Office files are written in; a table
// here instead of x/text's htmlindex, whose package initialisation (every
// WHATWG label, language tables) every fumibako command paid at start-up.
func CharsetReader(label string, input io.Reader) (io.Reader, error) {
	var e encoding.Encoding
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "utf-8", "utf8", "unicode-1-1-utf-8", "us-ascii", "ascii":
		return input, nil
	case "shift_jis", "shift-jis", "sjis", "x-sjis", "ms_kanji", "csshiftjis", "windows-31j", "cp932", "ms932":
		e = japanese.ShiftJIS
	case "euc-jp", "eucjp", "x-euc-jp", "cseucpkdfmtjapanese":
		e = japanese.EUCJP
	case "iso-2022-jp", "csiso2022jp":
		e = japanese.ISO2022JP
	case "utf-16", "utf-16le", "unicode", "ucs-2":
		e = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case "utf-16be", "unicodefffe":
		e = unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	case "iso-8859-1", "latin1", "l1", "windows-1252", "cp1252", "x-cp1252":
		e = charmap.Windows1252
	default:
		return nil, fmt.Errorf("unsupported XML encoding %q", label)
	}
	return e.NewDecoder().Reader(input), nil
}

// declaredEncoding returns the encoding named by an XML declaration
// unless it is UTF-8 (or absent).
func declaredEncoding(head []byte) string {
	if !bytes.HasPrefix(head, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(head, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := head[:end]
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) < 2 || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	j := bytes.IndexByte(rest[1:], rest[0])
	if j < 0 {
		return ""
	}
	label := rest[1 : 1+j]
	if bytes.EqualFold(label, []byte("utf-8")) || bytes.EqualFold(label, []byte("utf8")) || len(label) == 0 {
		return ""
	}
	return string(label)
}
