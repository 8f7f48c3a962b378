package worker

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// TotalMemory returns the machine's physical memory in bytes (MemTotal of
// /proc/meminfo); ok is false when it cannot be read.
func TotalMemory() (total uint64, ok bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return parseMemInfo(data)
}

// parseMemInfo reads the "MemTotal: <n> kB" line of /proc/meminfo.
func parseMemInfo(data []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 3 && string(f[0]) == "MemTotal:" && string(f[2]) == "kB" {
			kb, err := strconv.ParseUint(string(f[1]), 10, 64)
			return kb << 10, err == nil && kb > 0
		}
	}
	return 0, false
}
