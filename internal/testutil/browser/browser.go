// Package browser starts the headless chromium that fumibako's browser
// tests (internal/web) and the web phase of bench/cmd/scale drive through
// chromedp, with one list of options for both. It is a package of its own,
// not part of testutil, so that chromedp is linked only into the binaries
// that drive a browser, not into every test that imports testutil. It
// reads and writes no workspace file; the browser's profile is a
// temporary folder.
package browser

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Names are the program names chromium goes by, in the order Path tries
// them: Debian's package (`apt-get install chromium
// fonts-ipafont-gothic`, what make setup installs), Ubuntu's older one,
// and Google Chrome's two.
var Names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Path returns the first of Names found on PATH, or "" when none is.
func Path() string {
	for _, n := range Names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// options are the flags chromium runs with. Beyond the headless mode,
// each unusual one is there because:
//   - NoSandbox: chromium refuses to start as root with its sandbox, and
//     CI containers and the benchmark machines run as root;
//   - DisableGPU: those machines have no display GPU, and chromium's GPU
//     process would fail there before falling back to software;
//   - NoFirstRun, NoDefaultBrowserCheck: a fresh profile would otherwise
//     open the first-run and default-browser prompts;
//   - disable-quic, disable-background-networking,
//     disable-component-update, disable-sync: chromium would otherwise
//     reach Google's servers in the background (updates, sync, QUIC
//     probes), which time out on a machine without network and add
//     load beside what a test or the benchmark measures;
//   - disable-extensions: no extension process starts beside the page;
//   - WindowSize: the page lays out, and screenshots come out, the same
//     on every machine.
func options(path string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(1280, 900),
	}
}

// Start starts the chromium at path with the options above, then extra
// (chromedp.UserDataDir for a profile in a test's temporary folder;
// without it chromedp makes one under TMPDIR and removes it on cancel),
// and returns a chromedp context on its first tab. The browser lives as
// long as that context: a timeout for one action goes on a context
// derived from it. The cancel func ends the browser and every process it
// started.
func Start(path string, extra ...chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc, error) {
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(options(path), extra...)...)
	ctx, cancelC := chromedp.NewContext(actx)
	cancel := func() {
		cancelC()
		cancelA()
	}
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("chromium does not start: %v", err)
	}
	return ctx, cancel, nil
}
