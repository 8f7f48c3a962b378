package libreoffice

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/extract/internal/biff"
	"github.com/fumibako/fumibako/internal/extract/internal/fixture"
)

// lgFormatsBook is a BIFF8 workbook (sheet "書式") whose cells use Excel's
// locale-bound built-in formats without FORMAT records, as Excel writes
// them (14, 22, the Japanese date formats 27, 28, 31, 32, and 37), and the
// currency formats 5, 7 and 42 with the FORMAT records a Japanese Excel
// writes for them. Row 1 holds 2024-01-15 06:00, rows 2 and 3 ±1234.5.
func lgFormatsBook(tb testing.TB) []byte {
	tb.Helper()
	dates := []int{14, 22, 27, 28, 31, 32}
	numbers := []int{42, 37, 5, 7}
	currency := map[int]string{
		5:  `"¥"#,##0;"¥"\-#,##0`,
		7:  `"¥"#,##0.00;"¥"\-#,##0.00`,
		42: `_ "¥"* #,##0_ ;_ "¥"* \-#,##0_ ;_ "¥"* "-"_ ;_ @_ `,
	}
	const firstXF = 16 // after 15 style XFs and the default cell XF
	globals := func(b *fixture.Biff) {
		for _, id := range []int{5, 7, 42} {
			b.Rec(biff.RFormat, id, fixture.XlStr(currency[id]))
		}
		for i := 0; i < 15; i++ {
			b.Rec(biff.RXF, 0, 0, uint16(0xFFF5), make([]byte, 14)) // style XF
		}
		b.Rec(biff.RXF, 0, 0, uint16(0x0001), make([]byte, 14))
		for _, f := range append(append([]int{}, dates...), numbers...) {
			b.Rec(biff.RXF, 0, f, uint16(0x0001), make([]byte, 14))
		}
	}
	sheet := func(b *fixture.Biff) {
		// DIMENSIONS: LibreOffice drops the first cell of a sheet without it.
		b.Rec(0x0200, uint32(0), uint32(3), 0, uint16(len(dates)), 0)
		for i := range dates {
			b.Rec(biff.RNumber, 0, i, firstXF+i, 45306.25)
		}
		for i := range numbers {
			b.Rec(biff.RNumber, 1, i, firstXF+len(dates)+i, 1234.5)
			b.Rec(biff.RNumber, 2, i, firstXF+len(dates)+i, -1234.5)
		}
	}
	return fixture.CfbFile(tb, map[string][]byte{"Workbook": fixture.BuildBIFF8(globals, nil, nil, []fixture.XlsSheetSpec{{Name: "書式", Body: sheet}})})
}

// lgFormatsWant is what a Japanese Excel shows for lgFormatsBook.
var lgFormatsWant = []string{
	"2024/1/15\t2024/1/15 6:00\tR6.1.15\t令和6年1月15日\t2024年1月15日\t6時00分",
	" ¥1,235 \t1,235\t¥1,235\t¥1,234.50",
	" ¥-1,235 \t-1,235\t¥-1,235\t¥-1,234.50",
}

// TestLegacyLocaleLibreOffice converts lgFormatsBook with LibreOffice
// (the native reader left out) in a new profile folder, then again in the
// same profile, and in a profile LibreOffice created before the locale was
// set: each time the cells show as in a Japanese Excel and as the native
// .xls reader shows them (in the C locale LibreOffice wrote 1/15/2024,
// 1/15/2024 6:00 and (1,235)).
func TestLegacyLocaleLibreOffice(t *testing.T) {
	soffice := lgNeedSoffice(t)
	root := t.TempDir()
	defer checkNoSoffice(t, root)
	p := filepath.Join(root, "書式.xls")
	if err := os.WriteFile(p, lgFormatsBook(t), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	native, err := extract.NativeReaders()[".xls"](ctx, p, extract.Options{Scratch: t.TempDir()})
	if err != nil {
		t.Fatalf("native .xls reader: %v", err)
	}
	if len(native.Places) != 1 || strings.Join(native.Places[0].Lines, "\n") != strings.Join(lgFormatsWant, "\n") {
		t.Fatalf("native .xls reader = %q, want %q", native.Places, lgFormatsWant)
	}

	fresh := filepath.Join(root, "fresh")
	old := filepath.Join(root, "old")
	// A profile LibreOffice made before the locale was set (an earlier
	// version of fumibako, or LibreOffice started by hand).
	cmd := exec.CommandContext(ctx, soffice, "--headless", "--norestore", "--terminate_after_init",
		"-env:UserInstallation="+FileURL(filepath.Join(old, Profile)))
	cmd.Cancel = func() error { killTree(cmd.Process.Pid); return cmd.Process.Kill() }
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice --terminate_after_init: %v: %s", err, out)
	}
	if b, err := os.ReadFile(settingsFile(filepath.Join(old, Profile))); err != nil || bytes.Contains(b, []byte("ooSetupSystemLocale")) {
		t.Fatalf("profile made by LibreOffice: %v, or it sets the locale already:\n%s", err, b)
	}
	for _, tt := range []struct{ name, scratch string }{
		{"new profile", fresh},
		{"kept profile", fresh},
		{"profile without the locale", old},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range []string{"lo-in", "lo-out", "ooxml"} {
				os.RemoveAll(filepath.Join(tt.scratch, d))
			}
			os.MkdirAll(tt.scratch, 0o755)
			res, err := ReadLegacyWith(ctx, p, extract.Options{Scratch: tt.scratch}, nil)
			if err != nil {
				t.Fatalf("readLegacy via LibreOffice: %v", err)
			}
			if len(res.Places) != 1 || res.Places[0].Name != "書式" || strings.Join(res.Places[0].Lines, "\n") != strings.Join(native.Places[0].Lines, "\n") {
				t.Errorf("readLegacy via LibreOffice = %q, want %q", res.Places, native.Places)
			}
			b, err := os.ReadFile(settingsFile(filepath.Join(tt.scratch, Profile)))
			if err != nil || bytes.Count(b, []byte(localeItem)) != 1 || bytes.Count(b, []byte("ooSetupSystemLocale")) != 1 {
				t.Errorf("profile settings after the conversion (%v), want the locale item once:\n%s", err, b)
			}
		})
	}
}

// written is a registrymodifications.xcu as LibreOffice 7.4 writes it
// into a new profile, cut to two items.
const written = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Setup/Office"><prop oor:name="ooSetupInstCompleted" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
`

func TestWithLocaleItem(t *testing.T) {
	withItem := strings.Replace(written, "</oor:items>", localeItem+"\n</oor:items>", 1)
	tests := []struct {
		name, in, want string
	}{
		{name: "new profile", in: "", want: settingsHead + localeItem + "\n" + settingsTail},
		{name: "written by LibreOffice", in: written, want: withItem},
		{name: "has the item", in: withItem, want: withItem},
		{name: "another locale", in: strings.Replace(withItem, "<value>ja-JP</value>", "<value>en-US</value>", 1), want: withItem},
		{name: "locale left empty", in: strings.Replace(withItem, "<value>ja-JP</value>", "<value/>", 1), want: withItem},
		{name: "cut short", in: written[:200], want: settingsHead + localeItem + "\n" + settingsTail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := withLocaleItem([]byte(tt.in))
			if string(got) != tt.want || changed != (tt.in != tt.want) {
				t.Errorf("withLocaleItem(%q) = %q, %v, want %q, %v", tt.in, got, changed, tt.want, tt.in != tt.want)
			}
		})
	}
}

// TestLoEnsureLocale seeds a new profile folder, then leaves the file
// alone once it holds the item.
func TestLoEnsureLocale(t *testing.T) {
	profile := filepath.Join(t.TempDir(), Profile)
	if err := ensureLocale(profile); err != nil {
		t.Fatal(err)
	}
	xcu := settingsFile(profile)
	b, err := os.ReadFile(xcu)
	if err != nil || string(b) != settingsHead+localeItem+"\n"+settingsTail {
		t.Fatalf("seeded settings = %q, %v", b, err)
	}
	// LibreOffice rewrote it with its own items; a later call must not
	// touch it (an unchanged modification time shows no write).
	if err := os.WriteFile(xcu, []byte(strings.Replace(written, "</oor:items>", localeItem+"\n</oor:items>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(xcu, old, old)
	if err := ensureLocale(profile); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(xcu); err != nil || !st.ModTime().Equal(old) {
		t.Errorf("settings with the item were rewritten: %v", err)
	}
	if _, err := os.Stat(xcu + ".tmp"); err == nil {
		t.Errorf("temporary settings file left behind")
	}
}
