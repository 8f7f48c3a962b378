//go:build windows

package source

import (
	"os"
)

// markInternetZone writes the Mark of the Web (the Zone.Identifier
// stream, ZoneId=3: the Internet) on a read-only copy, so Office opens it
// in Protected View with its macros off. A volume without alternate data
// streams (FAT, some network shares, Wine's) refuses the stream: the copy
// is then only read-only, which is still what reference/search.md §9 asks.
func markInternetZone(path string) error {
	f, err := os.OpenFile(path+":Zone.Identifier", os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil
	}
	defer f.Close()
	_, err = f.WriteString("[ZoneTransfer]\r\nZoneId=3\r\n")
	return err
}
