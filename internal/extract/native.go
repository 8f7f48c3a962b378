package extract

import "maps"

// nativeReaders maps a lower-case legacy extension (.xls .xlsb .doc .ppt)
// to its reader written on the published binary specifications, without
// LibreOffice. They are not registered with register(): the legacy path
// tries the native reader first and converts with LibreOffice when it
// fails with anything but encryption (issue 6). Each format's file adds
// its entry in an init function.
var nativeReaders = map[string]Reader{}

func RegisterNative(r Reader, exts ...string) {
	for _, e := range exts {
		nativeReaders[e] = r
	}
}

// NativeReaders returns a copy of the native readers by extension.
func NativeReaders() map[string]Reader { return maps.Clone(nativeReaders) }
