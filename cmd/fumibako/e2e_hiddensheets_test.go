package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/fumibako/fumibako/internal/testutil"
)

// writeHiddenSheetBook writes a workbook with excelize (not fumibako): a
// visible sheet 見積, a hidden sheet 原価 whose B3 holds HIDDENTOKEN, a
// very hidden sheet 作業 (SECRETWORK at A1) and a visible sheet named
// 原価（非表示） (TWINTOKEN at A1), whose place must not be the hidden one's.
func writeHiddenSheetBook(t testing.TB, path string) {
	t.Helper()
	x := excelize.NewFile()
	defer x.Close()
	x.SetSheetName("Sheet1", "見積")
	x.SetCellValue("見積", "A1", "見積の表 VISIBLETOKEN")
	for _, s := range []string{"原価", "作業", "原価（非表示）"} {
		if _, err := x.NewSheet(s); err != nil {
			t.Fatal(err)
		}
	}
	x.SetCellValue("原価", "B3", "原価率 HIDDENTOKEN")
	x.SetCellValue("作業", "A1", "作業用 SECRETWORK")
	x.SetCellValue("原価（非表示）", "A1", "名前だけ TWINTOKEN")
	if err := x.SetSheetVisible("原価", false); err != nil {
		t.Fatal(err)
	}
	if err := x.SetSheetVisible("作業", false, true); err != nil {
		t.Fatal(err)
	}
	if err := x.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

// TestIssue31HiddenSheets: hidden sheets are skipped by default; `folder
// set --hidden-sheets on` makes the next run read the root's workbooks
// again (the plan sees them as changed) with their hidden sheets, labelled
// `[シート]原価（非表示）!B3`; an unchanged rerun reads nothing again; off
// drops them again. The .xlsx comes from excelize, the .xls and .ods from
// LibreOffice converting it (the BIFF and ODF readers).
func TestIssue31HiddenSheets(t *testing.T) {
	f := newFixture(t)
	book := filepath.Join(f.root, "原価表.xlsx")
	writeHiddenSheetBook(t, book)
	soffice := testutil.Require(t, "soffice", "libreoffice")
	profile := "-env:UserInstallation=file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "profile"))
	conv := t.TempDir()
	for _, to := range []string{"xls", "ods"} {
		out, err := exec.Command(soffice, profile, "--headless", "--norestore", "--convert-to", to, "--outdir", conv, book).CombinedOutput()
		if err != nil {
			t.Fatalf("soffice --convert-to %s: %v\n%s", to, err, out)
		}
		data, err := os.ReadFile(filepath.Join(conv, "原価表."+to))
		if err != nil {
			t.Fatalf("soffice wrote no .%s: %v\n%s", to, err, out)
		}
		f.write("古い原価表."+to, string(data))
	}
	f.write("メモ.txt", "HIDDENTOKEN はテキストにもある\n")
	f.mustRun("folder", "add", f.root)
	f.mustRun("index")

	type hit struct{ Path, Label string }
	search := func(word string) []hit {
		out, _, _ := f.run("search", word, "--json", "--no-names")
		var hits []hit
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var h hit
			if json.Unmarshal([]byte(l), &h) == nil && h.Path != "" {
				hits = append(hits, h)
			}
		}
		return hits
	}
	labels := func(word string) string {
		var s []string
		for _, h := range search(word) {
			s = append(s, h.Path+" "+h.Label)
		}
		return strings.Join(s, "|")
	}
	const twin = "原価表.xlsx [シート]原価（非表示）!A1|古い原価表.ods [シート]原価（非表示）!A1|古い原価表.xls [シート]原価（非表示）!A1"
	if got := labels("HIDDENTOKEN"); got != "メモ.txt 1 行目" {
		t.Errorf("default: HIDDENTOKEN hits %q, want only the text file's", got)
	}
	if got := labels("TWINTOKEN"); got != twin {
		t.Errorf("default: TWINTOKEN hits %q, want %q", got, twin)
	}
	before := f.row("原価表.xlsx").IngestedAt
	memo := f.row("メモ.txt").IngestedAt
	// The ingest list keeps times to the second: let one pass, so that a
	// file read again by the next run shows a new time.
	time.Sleep(1100 * time.Millisecond)

	if out := f.mustRun("folder", "set", "営業", "--hidden-sheets", "on"); !strings.Contains(out, "非表示のシートも取り込みます") {
		t.Errorf("folder set on: %q", out)
	}
	if out := f.mustRun("folder", "list", "--json"); !strings.Contains(out, `"hiddenSheets":true`) {
		t.Errorf("folder list --json: %s", out)
	}
	f.mustRun("index")
	want := "メモ.txt 1 行目|原価表.xlsx [シート]原価（非表示）!B3|古い原価表.ods [シート]原価（非表示）!B3|古い原価表.xls [シート]原価（非表示）!B3"
	if got := labels("HIDDENTOKEN"); got != want {
		t.Errorf("on: HIDDENTOKEN hits %q, want %q", got, want)
	}
	if got := labels("SECRETWORK"); !strings.Contains(got, "原価表.xlsx [シート]作業（非表示）!A1") {
		t.Errorf("on: SECRETWORK hits %q", got)
	}
	if got := labels("TWINTOKEN"); got != twin {
		t.Errorf("on: TWINTOKEN hits %q, want %q (the visible sheet of that name, apart)", got, twin)
	}
	if f.row("メモ.txt").IngestedAt != memo {
		t.Errorf("the text file was read again")
	}
	again := f.row("原価表.xlsx").IngestedAt
	if again == before {
		t.Errorf("the workbook was not read again after the switch")
	}
	// An unchanged rerun reads nothing again.
	f.mustRun("index")
	if f.row("原価表.xlsx").IngestedAt != again {
		t.Errorf("an unchanged rerun read the workbook again")
	}

	f.mustRun("folder", "set", "営業", "--hidden-sheets", "off")
	f.mustRun("index")
	if got := labels("HIDDENTOKEN"); got != "メモ.txt 1 行目" {
		t.Errorf("off again: HIDDENTOKEN hits %q", got)
	}
	for _, tc := range [][]string{{"folder", "set", "営業"}, {"folder", "set", "営業", "--hidden-sheets", "yes"}} {
		if _, errOut, code := f.run(tc...); code != 2 || !strings.Contains(errOut, "--hidden-sheets") {
			t.Errorf("%v: exit %d, %q", tc, code, errOut)
		}
	}
}
