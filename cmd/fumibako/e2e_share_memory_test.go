package main

import (
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestExportImportMemoryBounded: export and import stream, so their peak
// memory stays far below the index's size: a 96 MiB part (random bytes,
// which Deflate cannot shrink) goes through each with at most 64 MiB of
// peak memory, the Go runtime included.
func TestExportImportMemoryBounded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak memory is read from /proc (exithook_on.go)")
	}
	f, _, _ := indexedFixture(t, 6)
	const size = 96 << 20
	big := make([]byte, size)
	rand.New(rand.NewSource(1)).Read(big)
	part := filepath.Join(f.ws, "work", "store", "content", "営業", ".fumibako-index.00112233445566778899aabbccddeeff")
	if err := os.WriteFile(part, big, 0o644); err != nil {
		t.Fatal(err)
	}
	big = nil
	peak := filepath.Join(t.TempDir(), "peak")
	zipPath := filepath.Join(t.TempDir(), "大きい.zip")
	out, code, exportPeak := f.runPeak(peak, nil, "export", "営業", "--out", zipPath)
	if code != 0 {
		t.Fatalf("export: exit %d\n%s", code, out)
	}
	ws2 := filepath.Join(t.TempDir(), "ws2")
	out, code, importPeak := f.runPeak(peak, nil, "--workspace", ws2, "import", zipPath)
	if code != 0 || !strings.Contains(out, "取り込みました") {
		t.Fatalf("import: exit %d\n%s", code, out)
	}
	st, err := os.Stat(filepath.Join(ws2, "work", "store", "content", "営業", filepath.Base(part)))
	if err != nil || st.Size() != size {
		t.Fatalf("the big part after import: %v", err)
	}
	t.Logf("peak memory: export %d MiB, import %d MiB, for a %d MiB index", exportPeak>>20, importPeak>>20, size>>20)
	if exportPeak > 64<<20 || importPeak > 64<<20 {
		t.Errorf("peak memory: export %d MiB, import %d MiB; want at most 64 MiB each", exportPeak>>20, importPeak>>20)
	}
}
