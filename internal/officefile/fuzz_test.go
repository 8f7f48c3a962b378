package officefile_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/fumibako/fumibako/internal/officefile"
	"github.com/fumibako/fumibako/internal/testutil"
)

// seedNames are the cfbCases written to testdata/ as fuzz seeds.
var seedNames = map[string]string{
	"agile encrypted ooxml":         "password-ooxml.cfb",
	"irm ooxml":                     "rights-ooxml.cfb",
	"xls with rc4 default password": "xls-rc4-default.cfb",
	"xls with cryptoapi password":   "xls-cryptoapi.cfb",
	"encrypted doc":                 "doc-encrypted.cfb",
	"encrypted ppt by header token": "ppt-encrypted.cfb",
}

// TestSeeds keeps testdata/*.cfb equal to what BuildCFB makes (go test
// -update rewrites them).
func TestSeeds(t *testing.T) {
	for _, c := range cfbCases() {
		name, ok := seedNames[c.name]
		if !ok {
			continue
		}
		path := testutil.FixturePath(name)
		if testutil.Update() {
			if err := os.WriteFile(path, c.in, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, c.in) {
			t.Errorf("%s differs from BuildCFB's output (run go test -update): %v", path, err)
		}
	}
}

func addSeeds(f *testing.F) {
	testutil.AddSeeds(f, "*.cfb")
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("plain text"))
	f.Add([]byte{0, 1, 2})
}

func FuzzSniff(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := officefile.Sniff(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("Sniff error %v", err)
		}
		if head := officefile.SniffHead(b); head != got {
			t.Fatalf("Sniff = %v, SniffHead = %v", got, head)
		}
	})
}

func FuzzDetect(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := officefile.Detect(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("Detect error %v", err)
		}
		ok := map[officefile.Format][]officefile.Protection{
			officefile.FormatZIP:     {officefile.None},
			officefile.FormatText:    {officefile.Text},
			officefile.FormatUnknown: {officefile.Unknown},
			officefile.FormatCFB:     {officefile.Password, officefile.Rights, officefile.Legacy},
		}[d.Format]
		for _, p := range ok {
			if p == d.Protection {
				return
			}
		}
		t.Fatalf("Detect = format %v with protection %v", d.Format, d.Protection)
	})
}
