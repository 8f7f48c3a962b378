package browser_test

import (
	"runtime"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fumibako/fumibako/internal/testutil"
	"github.com/fumibako/fumibako/internal/testutil/browser"
)

// TestStart starts chromium with a profile in a temporary folder: the
// page sees a headless browser of the set window size, and after cancel
// no process of that profile is left.
func TestStart(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test")
	}
	path := testutil.Require(t, browser.Names...)
	if got := browser.Path(); got != path {
		t.Errorf("Path() = %q, want %q (the first of Names on PATH)", got, path)
	}
	profile := t.TempDir()
	ctx, cancel, err := browser.Start(path, chromedp.UserDataDir(profile))
	if err != nil {
		testutil.Unavailable(t, "%v", err)
	}
	tests := []struct {
		name, expr, want string
	}{
		{"headless", `navigator.userAgent.includes('HeadlessChrome') ? 'yes' : navigator.userAgent`, "yes"},
		{"window size", `window.outerWidth + 'x' + window.outerHeight`, "1280x900"},
	}
	for _, tt := range tests {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](tt.expr))
		if err != nil || got != tt.want {
			t.Errorf("%s: Evaluate(%s) = %q, %v, want %q", tt.name, tt.expr, got, err, tt.want)
		}
	}
	if runtime.GOOS == "linux" && len(testutil.ProcessesWith(profile)) == 0 {
		t.Errorf("no chromium process names the profile %s (chromedp.UserDataDir not passed on)", profile)
	}
	cancel()
	if left := testutil.ProcessesWith(profile); len(left) > 0 {
		t.Errorf("left running after cancel: %v", left)
	}
}
