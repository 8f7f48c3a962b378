//go:build windows

package bodyindex

import (
	"testing"

	"golang.org/x/sys/windows"
)

// failWhileMapped: Windows refuses to delete a mapped file by itself.
// Wine 8 instead reports the delete done and keeps the file pending under
// its name, so there the deferral cannot be shown; the Linux fake covers
// the same steps.
func failWhileMapped(t *testing.T) {
	if windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil {
		t.Skip("Wine reports a mapped file deleted and keeps it pending; only real Windows refuses the delete (the Linux fake runs this test)")
	}
}
