package streams_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
	"github.com/fumibako/fumibako/internal/extract/internal/streams"
	"github.com/fumibako/fumibako/internal/testutil"
)

// TestCFBDamage covers each check of Damage with a fault LibreOffice
// 7.4 refused (the want is a damaged verdict) and each fault it tolerated
// (no verdict), found by converting copies of corpus files damaged in the
// same ways.
func TestCFBDamage(t *testing.T) {
	sound := fixture.LgSoundCFB(t)
	// Entry 1 links on to entry 0 on its left: LibreOffice does not walk
	// on from it, so the bad name of entry 2 is never read.
	unwalked := fixture.LgPatch(fixture.LgPatch(sound, fixture.LgEntry1+68, uint32(0)), fixture.LgEntry2+64, uint16(300))
	tests := []struct {
		name    string
		in      []byte
		damaged bool
	}{
		{name: "sound", in: sound},
		{name: "shorter than the header", in: sound[:400], damaged: true},
		{name: "cut after the FAT", in: sound[:1024], damaged: true},
		{name: "cut inside the FAT", in: sound[:600], damaged: true},
		{name: "cut at the end", in: sound[:len(sound)-100]},
		{name: "major version 5", in: fixture.LgPatch(sound, 26, uint16(5)), damaged: true},
		{name: "version 4 with 512-byte sectors", in: fixture.LgPatch(sound, 26, uint16(4)), damaged: true},
		{name: "sector shift 10", in: fixture.LgPatch(sound, 30, uint16(10)), damaged: true},
		{name: "no FAT sectors", in: fixture.LgPatch(sound, 44, uint32(0)), damaged: true},
		{name: "negative FAT sector count", in: fixture.LgPatch(sound, 44, uint32(0x80000000)), damaged: true},
		{name: "no directory", in: fixture.LgPatch(sound, 48, uint32(0xFFFFFFFE)), damaged: true},
		{name: "directory past the end", in: fixture.LgPatch(sound, 48, uint32(0x00FFFFF0)), damaged: true},
		{name: "FAT sector past the end", in: fixture.LgPatch(sound, 76, uint32(0x00FFFFF0)), damaged: true},
		{name: "unneeded FAT sector past the end", in: fixture.LgPatch(fixture.LgPatch(sound, 44, uint32(2)), 80, uint32(0x00FFFFF0))},
		{name: "byte order FEFF", in: fixture.LgPatch(sound, 28, uint16(0xFEFF))},
		{name: "mini sector shift 7", in: fixture.LgPatch(sound, 32, uint16(7))},
		{name: "directory chain broken", in: fixture.LgPatch(sound, fixture.LgFATSect+4, uint32(0xFFFFFEFF))},
		{name: "stream chain broken", in: fixture.LgPatch(sound, fixture.LgFATSect+8, uint32(0x00FFFFF0))},
		{name: "name of 31 characters", in: fixture.LgPatch(sound, fixture.LgEntry2+64, uint16(64))},
		{name: "name of 32 characters", in: fixture.LgPatch(sound, fixture.LgEntry2+64, uint16(66)), damaged: true},
		{name: "name length 1", in: fixture.LgPatch(sound, fixture.LgEntry2+64, uint16(1)), damaged: true},
		{name: "odd name length", in: fixture.LgPatch(sound, fixture.LgEntry2+64, uint16(13))},
		{name: "root name length", in: fixture.LgPatch(sound, fixture.LgDir+64, uint16(300)), damaged: true},
		{name: "negative size", in: fixture.LgPatch(sound, fixture.LgEntry2+120, uint32(0x80000000)), damaged: true},
		{name: "negative root size", in: fixture.LgPatch(sound, fixture.LgDir+120, uint32(0x80000000)), damaged: true},
		{name: "negative start sector", in: fixture.LgPatch(sound, fixture.LgEntry2+116, uint32(0xFFFFFF00)), damaged: true},
		{name: "start sector DIFSECT", in: fixture.LgPatch(sound, fixture.LgEntry2+116, uint32(0xFFFFFFFC))},
		{name: "root of storage type", in: fixture.LgPatch(sound, fixture.LgDir+66, byte(1))},
		{name: "garbage in an unused entry", in: fixture.LgPatch(fixture.LgPatch(sound, fixture.LgUnused+64, uint16(0x200)), fixture.LgUnused+66, byte(0xFF))},
		{name: "sibling past the directory", in: fixture.LgPatch(sound, fixture.LgEntry2+72, uint32(0xFFF0))},
		{name: "entry linking to the root", in: unwalked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := streams.Damage(bytes.NewReader(tt.in), int64(len(tt.in)))
			if (got != "") != tt.damaged {
				t.Errorf("Damage = %q, want damaged %v", got, tt.damaged)
			}
		})
	}
}

// TestCFBDamageCorpus checks every compound file of the shared corpus:
// only OOM_alloc3.xls, whose directory sector 268 holds garbage entries
// that the tree reaches, is damaged; LibreOffice converts all the others
// or refuses them for their content.
func TestCFBDamageCorpus(t *testing.T) {
	corpus := testutil.Corpus(t)
	n := 0
	filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(b, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")) {
			return nil
		}
		n++
		got := streams.Damage(bytes.NewReader(b), int64(len(b)))
		if want := filepath.Base(p) == "OOM_alloc3.xls"; (got != "") != want {
			t.Errorf("cfbDamage(%s) = %q, want damaged %v", p, got, want)
		}
		return nil
	})
	if n == 0 {
		testutil.CorpusMissing(t, "no compound file under %s", corpus)
	}
}

func FuzzCFBDamage(f *testing.F) {
	sound := fixture.LgSoundCFB(f)
	f.Add(sound)
	f.Add(sound[:1024])
	f.Add(fixture.LgPatch(sound, fixture.LgEntry2+64, uint16(66)))
	f.Add(fixture.LgPatch(sound, fixture.LgFATSect+4, uint32(1))) // directory chain loops
	for _, name := range []string{"xls-rc4-default.cfb", "password-ooxml.cfb", "doc-encrypted.cfb"} {
		if b, err := os.ReadFile("../../../officefile/testdata/" + name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := streams.Damage(bytes.NewReader(b), int64(len(b)))
		if again := streams.Damage(bytes.NewReader(b), int64(len(b))); again != got {
			t.Fatalf("cfbDamage not deterministic: %q, then %q", got, again)
		}
		if len(b) < 512 && got == "" {
			t.Fatalf("cfbDamage of %d bytes = \"\", want damaged", len(b))
		}
	})
}
