//go:build !linux

package format

// adviseRandom and willNeed are Linux's read-ahead advice (advise_linux.go);
// elsewhere the system's own read-ahead stays.
func adviseRandom([]byte) {}

func willNeed([]byte) {}
