package xmlscan

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
)

// scanEvents renders the scanner's tokens as "<{space}name", ">name" and
// "'text" lines ({space} only when it is not empty), adjacent texts merged.
func scanEvents(data []byte) (string, error) {
	s, err := NewScanner(bytes.NewReader(data), 100)
	if err != nil {
		return "", err
	}
	s.Namespaces = true
	var out []string
	for {
		err := s.Next()
		if err == io.EOF {
			return strings.Join(out, "\n"), nil
		}
		if err != nil {
			return "", err
		}
		switch s.Kind {
		case Start:
			out = append(out, "<"+braced(s.Space())+string(s.Name))
		case End:
			out = append(out, ">"+braced(s.Space())+string(s.Name))
		case Text:
			if n := len(out); n > 0 && out[n-1][0] == '\'' {
				out[n-1] += string(s.Data)
			} else {
				out = append(out, "'"+string(s.Data))
			}
		}
	}
}

// stdEvents renders encoding/xml's tokens the same way (text only
// inside the root element).
func stdEvents(data []byte) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = CharsetReader
	var out []string
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return strings.Join(out, "\n"), nil
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			out = append(out, "<"+braced(t.Name.Space)+t.Name.Local)
		case xml.EndElement:
			depth--
			out = append(out, ">"+braced(t.Name.Space)+t.Name.Local)
		case xml.CharData:
			if depth == 0 || len(t) == 0 {
				continue
			}
			if n := len(out); n > 0 && out[n-1][0] == '\'' {
				out[n-1] += string(t)
			} else {
				out = append(out, "'"+string(t))
			}
		}
	}
}

func braced(space string) string {
	if space == "" {
		return ""
	}
	return "{" + space + "}"
}

func TestScanner(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" means must fail
	}{
		{"basic", `<?xml version="1.0"?><a x="1"><b>t</b><c/></a>`, "<a\n<b\n't\n>b\n<c\n>c\n>a"},
		{"prefix", `<x:a xmlns:x="u"><x:b/></x:a>`, "<{u}a\n<{u}b\n>{u}b\n>{u}a"},
		{"shadowed and restored", `<a xmlns="d" xmlns:p="q"><b xmlns="e" xmlns:p="r"><p:c/></b><c/><p:c/></a>`, "<{d}a\n<{e}b\n<{r}c\n>{r}c\n>{e}b\n<{d}c\n>{d}c\n<{q}c\n>{q}c\n>{d}a"},
		{"default and nested", `<a xmlns="d"><b xmlns="e" xmlns:p="q"><p:c/></b><p:c/><xml:d/></a>`, "<{d}a\n<{e}b\n<{q}c\n>{q}c\n>{e}b\n<{p}c\n>{p}c\n<{http://www.w3.org/XML/1998/namespace}d\n>{http://www.w3.org/XML/1998/namespace}d\n>{d}a"},
		{"entities", `<a>&lt;&amp;&gt;&quot;&apos;&#65;&#x3042;</a>`, "<a\n'<&>\"'Aあ\n>a"},
		{"crlf", "<a>x\r\ny\rz</a>", "<a\n'x\ny\nz\n>a"},
		{"cdata", `<a>x<![CDATA[<&>]]>y</a>`, "<a\n'x<&>y\n>a"},
		{"comment and pi", `<a><!-- c > d --><?p x?>t</a>`, "<a\n't\n>a"},
		{"quoted gt", `<a b=">" c='/>'>t</a>`, "<a\n't\n>a"},
		{"bom", "\xEF\xBB\xBF<a>t</a>", "<a\n't\n>a"},
		{"shift_jis", "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a>\x82\xa0</a>", "<a\n'あ\n>a"},
		{"mismatch", `<a><b></a></b>`, ""},
		{"unclosed", `<a><b>`, ""},
		{"dtd", `<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>`, ""},
		{"entity", `<a>&e;</a>`, ""},
		{"bad utf8", "<a>\xff</a>", ""},
		{"bad charref", `<a>&#0;</a>`, ""},
		{"utf16", "\xff\xfe<\x00a\x00/\x00>\x00", ""},
	}
	for _, tt := range tests {
		got, err := scanEvents([]byte(tt.in))
		if tt.want == "" {
			if err == nil {
				t.Errorf("%s: scan(%q) = %q, want error", tt.name, tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: scan(%q) = %q, %v; want %q", tt.name, tt.in, got, err, tt.want)
		}
	}
	deep := strings.Repeat("<a>", 101) + strings.Repeat("</a>", 101)
	if _, err := scanEvents([]byte(deep)); err == nil {
		t.Errorf("101 nested elements scanned with a limit of 100")
	}
}

func TestScannerAttr(t *testing.T) {
	s, err := NewScanner(strings.NewReader(`<c  r = "B2" x:s='3' t="s&amp;t" empty=""/>`), 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Next(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, want string }{{"r", "B2"}, {"s", "3"}, {"t", "s&t"}, {"empty", ""}, {"none", ""}} {
		if got := string(s.Attr(tt.name)); got != tt.want {
			t.Errorf("attr(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// FuzzScanner compares the scanner with encoding/xml: where both read a
// document they must see the same elements and text, and the scanner may
// refuse only what it documents (DTDs and other <! markup, UTF-16).
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		`<a x="1"><b>t</b><c/></a>`,
		`<x:worksheet xmlns:x="u"><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
		"<a>&lt;&#x3042;<![CDATA[x]]>\r\n</a>",
		`<sst><si><r><t>a</t></r><rPh><t>b</t></rPh></si></sst>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gerr := scanEvents(data)
		want, werr := stdEvents(data)
		switch {
		case gerr == nil && werr == nil:
			if got != want {
				t.Fatalf("scan(%q) = %q, encoding/xml %q", data, got, want)
			}
		case gerr != nil && werr == nil:
			if bytes.Contains(data, []byte("<!")) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
				return
			}
			t.Fatalf("scan(%q) failed (%v) where encoding/xml read %q", data, gerr, want)
		}
	})
}

// TestScannerManyPrefixes: a part that declares thousands of prefixes
// resolves each element's by a lookup, not a walk of the declarations
// (which made such a part's reading quadratic).
func TestScannerManyPrefixes(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString("<root")
	for i := range n {
		fmt.Fprintf(&b, ` xmlns:p%d="u%d"`, i, i)
	}
	b.WriteString(">")
	for i := range n {
		fmt.Fprintf(&b, "<p%d:x/>", i)
	}
	b.WriteString("</root>")
	s, err := NewScanner(strings.NewReader(b.String()), 10)
	if err != nil {
		t.Fatal(err)
	}
	s.Namespaces = true
	seen := 0
	for {
		err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if s.Kind == Start && string(s.Name) == "x" {
			if want := fmt.Sprintf("u%d", seen); s.Space() != want {
				t.Fatalf("element %d in space %q, want %q", seen, s.Space(), want)
			}
			seen++
		}
	}
	if seen != n {
		t.Errorf("%d elements, want %d", seen, n)
	}
}
