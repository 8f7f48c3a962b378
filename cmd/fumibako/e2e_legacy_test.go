package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/ingestlist"
)

// TestHangingConverterKilledAtDeadline: a converter that hangs (a fake
// soffice that starts a grandchild and sleeps) is killed with its children
// at the per-file deadline; the file fails with the timeout message and no
// converter process survives the run.
func TestHangingConverterKilledAtDeadline(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script converter")
	}
	f := newFixture(t)
	bin := filepath.Join(filepath.Dir(f.ws), "fakebin")
	os.MkdirAll(bin, 0o755)
	marker := "fumibako-hang-" + filepath.Base(filepath.Dir(f.ws))
	script := "#!/bin/sh\nsh -c 'sleep 1000; : " + marker + "' &\nsh -c 'sleep 1000; : " + marker + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "soffice"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// An RTF document saved as .doc is converted (no native reader reads it).
	f.write("old.doc", `{\rtf1\ansi 古い文書}`)
	f.write("ok.txt", "普通のファイル\n")
	f.mustRun("folder", "add", f.root)
	f.env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	start := time.Now()
	f.mustRun("index", "--file-timeout", "3s")
	t.Logf("run with a hanging converter: %v", time.Since(start))
	if r := f.row("old.doc"); r.State != ingestlist.Failed || !strings.HasPrefix(r.Error, "3 秒以内に取り込みが終わらなかったため中止しました") {
		t.Errorf("row = %+v", r)
	}
	if r := f.row("ok.txt"); r.State != ingestlist.Done {
		t.Errorf("ok.txt row = %+v", r)
	}
	time.Sleep(200 * time.Millisecond)
	if out, err := exec.Command("pgrep", "-f", marker).Output(); err == nil {
		t.Errorf("converter processes survived the deadline: %s", out)
		exec.Command("pkill", "-f", marker).Run()
	}
}
