//go:build windows

package desktop

import (
	"fmt"
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/windows"
)

// createNoWindow keeps PowerShell's console window from flashing up.
const createNoWindow = 0x08000000

// prepare sets the exact command line where one is given (explorer.exe's
// /select,"<path>"), and starts PowerShell without a console window.
func prepare(cmd *exec.Cmd, c Command) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: c.CmdLine}
	if c.Verdict > 0 {
		cmd.SysProcAttr.CreationFlags |= createNoWindow
	}
}

// shellExecute applies a shell verb (OpenAsReadOnly, New) to a file, as
// Explorer's context menu does (ShellExecuteW, shell32.dll through
// golang.org/x/sys/windows; no cgo). COM is initialised on the calling
// thread first, as ShellExecute asks, because a verb may be carried out by
// a shell extension. A verb the file's application does not register is
// an error (SE_ERR_NOASSOC).
func shellExecute(verb, file string) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := windows.CoInitializeEx(0, windows.COINIT_APARTMENTTHREADED|windows.COINIT_DISABLE_OLE1DDE); err == nil {
		defer windows.CoUninitialize()
	}
	v, err := windows.UTF16PtrFromString(verb)
	if err != nil {
		return fmt.Errorf("desktop: verb %q: %w", verb, err)
	}
	f, err := windows.UTF16PtrFromString(file)
	if err != nil {
		return fmt.Errorf("desktop: %s: %w", file, err)
	}
	if err := windows.ShellExecute(0, v, f, nil, nil, windows.SW_SHOWNORMAL); err != nil {
		return fmt.Errorf("desktop: %s %s: %w", verb, file, err)
	}
	return nil
}
