//go:build testhooks

package format

import "os"

// With FUMIBAKO_TEST_BODY_VERSION=3 a test binary writes body indexes of
// version 3 (the layout of 4, folded as this build folds), so that an
// end-to-end test can have the next run convert them (Rebuild).
func init() {
	if os.Getenv("FUMIBAKO_TEST_BODY_VERSION") == "3" {
		WriteVersion = 3
	}
}
