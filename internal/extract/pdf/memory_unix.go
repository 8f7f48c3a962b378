//go:build linux || darwin

package pdf

import "golang.org/x/sys/unix"

// mappedMemory is an anonymous private mapping of the bound: the system
// gives a page only when the module first touches it.
type mappedMemory struct{ mem []byte }

// reserve maps limit bytes; where the system refuses, the module grows in
// the Go heap instead.
func reserve(limit int64) osMemory {
	mem, err := unix.Mmap(-1, 0, int(limit), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		return &heapMemory{limit: int(limit)}
	}
	return &mappedMemory{mem: mem}
}

func (m *mappedMemory) commit(size int) ([]byte, bool) {
	if size > len(m.mem) {
		return nil, false
	}
	return m.mem[:size:size], true
}

func (m *mappedMemory) release() {
	if m.mem != nil {
		unix.Munmap(m.mem)
		m.mem = nil
	}
}
