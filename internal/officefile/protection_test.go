package officefile_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile"
	"github.com/fumibako/fumibako/internal/testutil"
)

type node = officefile.Node

func record(typ uint16, data []byte) []byte {
	b := binary.LittleEndian.AppendUint16(nil, typ)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(data)))
	return append(b, data...)
}

// workbook is a Workbook/Book stream: BOF of the given BIFF version, an
// optional FilePass, then records that follow it, a BoundSheet and EOF.
func workbook(vers uint16, filePass []byte) []byte {
	bof := make([]byte, 16)
	binary.LittleEndian.PutUint16(bof, vers)
	binary.LittleEndian.PutUint16(bof[2:], 5)
	b := record(0x0809, bof)
	b = append(b, record(0x0086, nil)...) // WriteProtect may precede FilePass
	if filePass != nil {
		b = append(b, record(0x002F, filePass)...)
	}
	b = append(b, record(0x00E1, []byte{0xB0, 0x04})...)
	b = append(b, record(0x0085, make([]byte, 12))...)
	b = append(b, record(0x000A, nil)...)
	return b
}

// wordDocument is a WordDocument stream whose FibBase flags are flags; it is
// longer than the mini stream cutoff so it lives in regular sectors.
func wordDocument(flags uint16) []byte {
	b := make([]byte, 5000)
	binary.LittleEndian.PutUint16(b, 0xA5EC)
	binary.LittleEndian.PutUint16(b[2:], 0x00C1)
	binary.LittleEndian.PutUint16(b[10:], flags)
	return b
}

// currentUser is a PowerPoint Current User stream with headerToken token.
func currentUser(token uint32) []byte {
	b := []byte{0, 0, 0xF6, 0x0F, 0x20, 0, 0, 0, 0x14, 0, 0, 0}
	b = binary.LittleEndian.AppendUint32(b, token)
	return append(b, make([]byte, 24)...)
}

func cfbCases() []struct {
	name string
	in   []byte
	want officefile.Protection
} {
	small := []byte("data")
	return []struct {
		name string
		in   []byte
		want officefile.Protection
	}{
		{"agile encrypted ooxml", officefile.BuildCFB([]node{
			{Name: "\x06DataSpaces", Children: []node{{Name: "DataSpaceInfo", Children: []node{{Name: "StrongEncryptionDataSpace", Data: small}}}}},
			{Name: "EncryptionInfo", Data: small},
			{Name: "EncryptedPackage", Data: make([]byte, 5000)},
		}), officefile.Password},
		{"encryption info only, other case", officefile.BuildCFB([]node{{Name: "ENCRYPTIONINFO", Data: small}}), officefile.Password},
		{"irm ooxml", officefile.BuildCFB([]node{
			{Name: "\x06DataSpaces", Children: []node{
				{Name: "DataSpaceInfo", Children: []node{{Name: "DRMEncryptedDataSpace", Data: small}}},
				{Name: "TransformInfo", Children: []node{{Name: "DRMEncryptedTransform", Children: []node{{Name: "\x06Primary", Data: small}}}}},
			}},
			{Name: "EncryptedPackage", Data: small},
		}), officefile.Rights},
		{"legacy irm", officefile.BuildCFB([]node{{Name: "\x09DRMContent", Data: small}, {Name: "\x09DRMDataSpace", Data: small}}), officefile.Rights},
		{"unknown data space is rights (fail-safe)", officefile.BuildCFB([]node{{Name: "\x06DataSpaces", Children: []node{{Name: "Other", Data: small}}}}), officefile.Rights},
		{"plain xls", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, nil)}}), officefile.Legacy},
		{"xls with rc4 password", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassRC4("secret"))}}), officefile.Password},
		{"xls with rc4 default password", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassRC4("VelvetSweatshop"))}}), officefile.Legacy},
		{"xls with cryptoapi password", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassCryptoAPI("secret", 128))}}), officefile.Password},
		{"xls with cryptoapi default password 128", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassCryptoAPI("VelvetSweatshop", 128))}}), officefile.Legacy},
		{"xls with cryptoapi default password 40", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassCryptoAPI("VelvetSweatshop", 40))}}), officefile.Legacy},
		{"xls with xor password", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassXOR("secret"))}}), officefile.Password},
		{"xls with xor default password", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassXOR("VelvetSweatshop"))}}), officefile.Legacy},
		{"biff5 book with password", officefile.BuildCFB([]node{{Name: "Book", Data: workbook(0x0500, officefile.FilePassBIFF5("secret"))}}), officefile.Password},
		{"biff5 book with default password", officefile.BuildCFB([]node{{Name: "Book", Data: workbook(0x0500, officefile.FilePassBIFF5("VelvetSweatshop"))}}), officefile.Legacy},
		{"big workbook stream with password", officefile.BuildCFB([]node{{Name: "Workbook", Data: append(workbook(0x0600, officefile.FilePassRC4("x")), make([]byte, 9000)...)}}), officefile.Password},
		{"filepass after boundsheet is not looked for", officefile.BuildCFB([]node{{Name: "Workbook", Data: append(workbook(0x0600, nil)[:len(workbook(0x0600, nil))-4], record(0x002F, officefile.FilePassRC4("x"))...)}}), officefile.Legacy},
		{"workbook not starting with bof", officefile.BuildCFB([]node{{Name: "Workbook", Data: record(0x002F, officefile.FilePassRC4("x"))}}), officefile.Legacy},
		{"nested encrypted workbook does not count", officefile.BuildCFB([]node{
			{Name: "WordDocument", Data: wordDocument(0)},
			{Name: "ObjectPool", Children: []node{{Name: "_1234", Children: []node{{Name: "Workbook", Data: workbook(0x0600, officefile.FilePassRC4("x"))}}}}},
		}), officefile.Legacy},
		{"plain doc", officefile.BuildCFB([]node{{Name: "WordDocument", Data: wordDocument(0x0200)}, {Name: "1Table", Data: small}}), officefile.Legacy},
		{"encrypted doc", officefile.BuildCFB([]node{{Name: "WordDocument", Data: wordDocument(0x0300)}, {Name: "1Table", Data: small}}), officefile.Password},
		{"obfuscated doc", officefile.BuildCFB([]node{{Name: "WordDocument", Data: wordDocument(0x8100)}}), officefile.Password},
		{"plain ppt", officefile.BuildCFB([]node{{Name: "PowerPoint Document", Data: small}, {Name: "Current User", Data: currentUser(0xE391C05F)}}), officefile.Legacy},
		{"encrypted ppt by header token", officefile.BuildCFB([]node{{Name: "PowerPoint Document", Data: small}, {Name: "Current User", Data: currentUser(0xF3D1C4DF)}}), officefile.Password},
		{"encrypted ppt by summary", officefile.BuildCFB([]node{{Name: "PowerPoint Document", Data: small}, {Name: "EncryptedSummary", Data: small}}), officefile.Password},
		{"empty compound file", officefile.BuildCFB(nil), officefile.Legacy},
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range cfbCases() {
		t.Run(tt.name, func(t *testing.T) {
			d, err := officefile.Detect(bytes.NewReader(tt.in), int64(len(tt.in)))
			if err != nil {
				t.Fatalf("Detect error %v", err)
			}
			if d.Format != officefile.FormatCFB || d.Protection != tt.want {
				t.Errorf("Detect = %v %v (%s), want CFB %v", d.Format, d.Protection, d.Reason, tt.want)
			}
		})
	}
}

func TestDetectNonCFB(t *testing.T) {
	tests := []struct {
		in   string
		want officefile.Protection
	}{
		{"PK\x03\x04zip", officefile.None},
		{"", officefile.Text},
		{"<table><tr><td>1</td></tr></table>", officefile.Text},
		{"\x01\x02\x00\x03", officefile.Unknown},
	}
	for _, tt := range tests {
		got, err := officefile.DetectProtection(strings.NewReader(tt.in), int64(len(tt.in)))
		if err != nil || got != tt.want {
			t.Errorf("DetectProtection(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestDetectHostile damages compound files: every case must end quickly as
// Legacy (or whatever the surviving directory says) without a panic.
func TestDetectHostile(t *testing.T) {
	good := officefile.BuildCFB([]node{{Name: "EncryptionInfo", Data: []byte("x")}, {Name: "Workbook", Data: workbook(0x0600, officefile.FilePassRC4("x"))}})
	le := binary.LittleEndian
	dirStart := le.Uint32(good[48:])
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte{}, good...)) }
	tests := []struct {
		name string
		in   []byte
		want officefile.Protection
	}{
		{"header only", good[:512], officefile.Legacy},
		{"cut header", good[:300], officefile.Legacy},
		{"bad sector shift", mutate(func(b []byte) []byte { le.PutUint16(b[30:], 20); return b }), officefile.Legacy},
		{"directory sector beyond the file", mutate(func(b []byte) []byte { le.PutUint32(b[48:], 0xFFFFFF00); return b }), officefile.Legacy},
		{"directory chain loops on itself", mutate(func(b []byte) []byte { le.PutUint32(b[512+4*dirStart:], dirStart); return b }), officefile.Password},
		{"huge difat count", mutate(func(b []byte) []byte { le.PutUint32(b[68:], 0); le.PutUint32(b[72:], 0xFFFFFFFF); return b }), officefile.Password},
		{"no fat sectors", mutate(func(b []byte) []byte {
			for i := 76; i < 512; i++ {
				b[i] = 0xFF
			}
			return b
		}), officefile.Password}, // the first directory sector is read without the FAT
		{"truncated after the directory", good[:(int(dirStart)+2)*512], officefile.Password},
		{"mini stream chain loops", mutate(func(b []byte) []byte {
			// point the mini FAT entry 0 at itself
			mf := le.Uint32(b[60:])
			le.PutUint32(b[(int(mf)+1)*512:], 0)
			return b
		}), officefile.Password},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := officefile.DetectProtection(bytes.NewReader(tt.in), int64(len(tt.in)))
			if err != nil {
				t.Fatalf("DetectProtection error %v", err)
			}
			if got != tt.want {
				t.Errorf("DetectProtection = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestProtectionString(t *testing.T) {
	want := map[officefile.Protection]string{officefile.None: "Zip", officefile.Password: "Password", officefile.Rights: "Rights", officefile.Legacy: "Legacy", officefile.Text: "Text", officefile.Unknown: "Unknown"}
	for p, s := range want {
		if p.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(p), p.String(), s)
		}
	}
}

func TestFilePassAccepts(t *testing.T) {
	for _, pw := range []string{"VelvetSweatshop", "secret", "長いパスワード"} {
		for name, data := range map[string][]byte{
			"xor": officefile.FilePassXOR(pw), "rc4": officefile.FilePassRC4(pw),
			"cryptoapi40": officefile.FilePassCryptoAPI(pw, 40), "cryptoapi128": officefile.FilePassCryptoAPI(pw, 128),
		} {
			if !officefile.FilePassAccepts(data, false, pw) {
				t.Errorf("%s(%q) does not accept its own password", name, pw)
			}
			if officefile.FilePassAccepts(data, false, pw+"x") {
				t.Errorf("%s(%q) accepts %q", name, pw, pw+"x")
			}
		}
	}
	for _, data := range [][]byte{nil, {1}, {1, 0, 1, 0}, {1, 0, 4, 0, 2, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF}, {9, 9, 9}} {
		if officefile.FilePassAccepts(data, false, "VelvetSweatshop") {
			t.Errorf("FilePassAccepts(% x) = true for a malformed record", data)
		}
	}
}

func corpusDir(t testing.TB) string {
	t.Helper()
	return testutil.Corpus(t)
}

// TestCorpusTikaPassword checks the RC4 verifier against a real workbook
// whose password is "tika".
func TestCorpusTikaPassword(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(corpusDir(t), "tika", "testEXCEL_protected_passtika.xls"))
	if err != nil {
		testutil.CorpusMissing(t, "corpus file: %v", err)
	}
	i := bytes.Index(b, []byte{0x2F, 0x00, 0x36, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00})
	if i < 0 {
		t.Fatal("FilePass record not found in testEXCEL_protected_passtika.xls")
	}
	data := b[i+4 : i+4+0x36]
	if !officefile.FilePassAccepts(data, false, "tika") || officefile.FilePassAccepts(data, false, "VelvetSweatshop") {
		t.Errorf("FilePass of testEXCEL_protected_passtika.xls: want tika accepted, VelvetSweatshop refused")
	}
}

func TestDetectCorpus(t *testing.T) {
	dir := corpusDir(t)
	want := map[string]officefile.Protection{
		"calamine/pass_protected.xlsb":             officefile.Password,
		"calamine/pass_protected.xlsx":             officefile.Password,
		"tika/testEXCEL_protected_passtika.xls":    officefile.Password,
		"tika/testWORD_protected_passtika.doc":     officefile.Password,
		"tika/testPPT_protected_passtika.ppt":      officefile.Password,
		"tika/testPPT_protected_passtika.pptx":     officefile.Password,
		"tika/testWORD_protected_passtika.docx":    officefile.Password,
		"tika/testWORD_protected_drm.doc":          officefile.Rights,
		"tika/testWORD.doc":                        officefile.Legacy,
		"tika/testPPT.ppt":                         officefile.Legacy,
		"tika/testWORDML_tableInsideParagraph.doc": officefile.Text,
		"tika/testEXCEL_4.xls":                     officefile.Unknown,
		"calamine/any_sheets.xls":                  officefile.Legacy,
		"calamine/any_sheets.xlsx":                 officefile.None,
		"calamine/capitalized_wbook_stream.xls":    officefile.Legacy,
	}
	for rel, w := range want {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Logf("skip %s: %v", rel, err)
			continue
		}
		st, _ := f.Stat()
		got, err := officefile.DetectProtection(f, st.Size())
		f.Close()
		if err != nil || got != w {
			t.Errorf("DetectProtection(%s) = %v, %v, want %v", rel, got, err, w)
		}
	}
	// Every other file must classify without an error.
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		st, _ := f.Stat()
		if _, err := officefile.Detect(f, st.Size()); err != nil {
			t.Errorf("Detect(%s) error %v", p, err)
		}
		f.Close()
	}
}

func TestDetectProgram(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"workbook", officefile.BuildCFB([]node{{Name: "Workbook", Data: workbook(0x0600, nil)}}), officefile.ProgramExcel},
		{"biff5 book", officefile.BuildCFB([]node{{Name: "Book", Data: workbook(0x0500, nil)}}), officefile.ProgramExcel},
		{"word", officefile.BuildCFB([]node{{Name: "1Table", Data: []byte("x")}, {Name: "WordDocument", Data: wordDocument(0)}}), officefile.ProgramWord},
		{"powerpoint", officefile.BuildCFB([]node{{Name: "PowerPoint Document", Data: []byte("x")}}), officefile.ProgramPowerPoint},
		{"encrypted ooxml", officefile.BuildCFB([]node{{Name: "EncryptionInfo", Data: []byte("x")}}), ""},
		{"nested workbook only", officefile.BuildCFB([]node{{Name: "ObjectPool", Children: []node{{Name: "Workbook", Data: []byte("x")}}}}), ""},
	}
	for _, tt := range tests {
		d, err := officefile.Detect(bytes.NewReader(tt.in), int64(len(tt.in)))
		if err != nil || d.Program != tt.want {
			t.Errorf("Detect(%s).Program = %q, %v, want %q", tt.name, d.Program, err, tt.want)
		}
	}
}

func TestIsBIFFStream(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"\x09\x04\x06\x00\x00\x00\x10\x00", true},  // BIFF4 worksheet
		{"\x09\x04\x06\x00\x00\x00\x00\x01", true},  // BIFF4 workbook
		{"\x09\x02\x06\x00\x00\x00\x10\x00", true},  // BIFF3
		{"\x09\x00\x04\x00\x02\x00\x10\x00", true},  // BIFF2
		{"\x09\x04\x06\x00\x00\x00\x99\x00", false}, // unknown sheet type
		{"\x09\x08\x10\x00\x00\x06\x05\x00", false}, // BIFF8 BOF belongs in a CFB
		{"\x09\x04\x06", false},
		{"PK\x03\x04\x00\x00\x00\x00", false},
	}
	for _, tt := range tests {
		if got := officefile.IsBIFFStream([]byte(tt.in)); got != tt.want {
			t.Errorf("IsBIFFStream(% x) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
