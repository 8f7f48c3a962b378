//go:build !windows

package source

// markInternetZone: only Windows has the zone mark.
func markInternetZone(string) error { return nil }
