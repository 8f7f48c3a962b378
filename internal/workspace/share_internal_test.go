package workspace

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// fakeShares replaces WNetGetUniversalName and the drive list: Z: is
// mapped to \\srv\共有, Y: to \\srv\共有\経理, C: is local.
func fakeShares(t *testing.T) {
	t.Helper()
	maps := map[string]string{"Z:": `\\srv\共有`, "Y:": `\\srv\共有\経理`}
	oldU, oldD := universalName, driveRoots
	t.Cleanup(func() { universalName, driveRoots = oldU, oldD })
	universalName = func(p string) (string, error) {
		if !isDrivePath(p) {
			return "", errors.New("not a drive path")
		}
		u, ok := maps[strings.ToUpper(p[:2])]
		if !ok {
			return "", errors.New("ERROR_NOT_CONNECTED")
		}
		return strings.TrimRight(u+p[2:], `\`), nil
	}
	driveRoots = func() []string { return []string{`C:\`, `Y:\`, `Z:\`} }
}

func TestShareAliases(t *testing.T) {
	fakeShares(t)
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{`Z:\営業`, []string{`\\srv\共有\営業`}},
		{`z:\営業\2024`, []string{`\\srv\共有\営業\2024`}},
		{`\\srv\共有\営業`, []string{`Z:\営業`}},
		{`\\SRV\共有\経理\a`, []string{`Y:\a`, `Z:\経理\a`}},
		{`\\srv\共有`, []string{`Z:`}},
		{`\\srv\共有2\x`, nil},
		{`C:\local`, nil},
		{`/home/x`, nil},
	} {
		got := ShareAliases(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("ShareAliases(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{`Z:\営業`, `\\srv\共有\営業`, true},
		{`\\srv\共有\営業`, `Z:\営業`, true},
		{`Y:\`, `Z:\経理`, true}, // two drives mapped to the same share
		{`y:\a`, `Z:\経理\A`, true},
		{`Z:\営業`, `\\srv\共有\経理`, false},
		{`C:\a`, `\\srv\共有\a`, false},
	} {
		if got := SamePlace(tt.a, tt.b); got != tt.want {
			t.Errorf("SamePlace(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	for _, tt := range []struct {
		p    string
		want bool
	}{{`\\srv\x`, true}, {`Z:\a`, true}, {`C:\a`, false}, {`/home`, false}, {`\\?\C:\a`, false}} {
		if got := IsNetworkPath(tt.p); got != tt.want {
			t.Errorf("IsNetworkPath(%s) = %v", tt.p, got)
		}
	}
}

// TestAddRootSameShare: a share registered through a mapped drive is the
// same root through its UNC path, and an index known at the drive path
// gives its name back to the UNC path (no re-ingest). Windows paths only.
func TestAddRootSameShare(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("drive letters and UNC paths are Windows paths")
	}
	fakeShares(t)
	ws := t.TempDir()
	s := &Settings{}
	r, err := s.AddRoot(`\\srv\共有\営業`, "", ws, []KnownIndex{{Name: "営業部", Path: `Z:\営業`}})
	if err != nil || r.Name != "営業部" {
		t.Fatalf("AddRoot(UNC) = %+v, %v, want the known index 営業部", r, err)
	}
	if _, err := s.AddRoot(`Z:\営業`, "", ws, nil); err == nil || !strings.Contains(err.Error(), "既にあります") {
		t.Errorf("AddRoot(mapped drive of a registered UNC root) = %v, want refused as registered", err)
	}
}

// TestRealUniversalName calls the system's WNetGetUniversalName on a
// local drive (Windows, Wine included): it must answer an error, not
// crash or claim a share.
func TestRealUniversalName(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("mpr.dll is Windows'")
	}
	if u, err := wnetUniversalName(`C:\`); err == nil {
		t.Logf("C:\\ reported as %q (a mapped system drive?)", u)
	}
	if len(logicalDriveRoots()) == 0 {
		t.Errorf("no drive roots")
	}
}
