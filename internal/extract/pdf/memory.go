package pdf

import (
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// The engine's linear memory is bounded by the worker's memory cap, and by
// a fixed bound where the worker has none (--worker-memory -1; macOS,
// where the cap is not enforced), so that a hostile document (a form
// XObject that draws the one before it many times, nested) ends as the
// memory message on every system instead of taking the machine's memory
// (issue 36).
//
// The memory is reserved once at the bound and committed page by page as
// the module grows it (mmap on Unix, VirtualAlloc on Windows), outside the
// Go heap: growing never copies, so the worker's resident memory follows
// what the module uses. wazero's default grows a Go slice by appending,
// which held the old and the new copy and left garbage behind: a 1 GiB
// module memory cost 3.9 GiB.
//
// The allocator enforces the bound itself, so it knows when a document
// asked for more; wazero's own limit (WithMemoryLimitPages) stays above it
// as a backstop. A read that fails after the module was refused memory is
// the memory message (extract.MsgOutOfMemory), not a broken file.
const (
	// memFixed bounds the module's memory when the worker has no cap.
	memFixed int64 = 1 << 30
	// memFloor is the least a capped worker gives the module: room to
	// open ordinary documents.
	memFloor int64 = 128 << 20
	// memShareDivisor: the module may take 1/memShareDivisor of the
	// worker's cap (the rest holds the Go side: the compiled code, the
	// copied text).
	memShareDivisor = 2
	// pageSize is WebAssembly's page (64 KiB).
	pageSize = 64 << 10
	// maxPages is the most a 32-bit module can address (4 GiB).
	maxPages = 65536
)

// memoryBound is the allocator of the module's linear memory
// (experimental.MemoryAllocator) and its bound.
type memoryBound struct {
	limit   int64       // bytes the module may use
	refused atomic.Bool // a grow past limit was refused since reset
	size    atomic.Int64
}

// newMemoryBound returns the bound for a worker with memLimit bytes of cap
// (0 or less = none).
func newMemoryBound(memLimit int64) *memoryBound {
	limit := memFixed
	if memLimit > 0 {
		limit = min(max(memLimit/memShareDivisor, memFloor), memFixed)
	}
	return &memoryBound{limit: limit &^ (pageSize - 1)}
}

// pages is wazero's limit: twice the bound (a backstop; the allocator
// refuses first and remembers it).
func (m *memoryBound) pages() uint32 {
	return uint32(min(2*m.limit/pageSize, maxPages))
}

// reset forgets a refusal before the next document.
func (m *memoryBound) reset() { m.refused.Store(false) }

// exhausted reports that the module was refused memory since reset.
func (m *memoryBound) exhausted() bool { return m.refused.Load() }

// used is the size of the current instance's memory in bytes.
func (m *memoryBound) used() int64 { return m.size.Load() }

// Allocate implements experimental.MemoryAllocator: the instance's memory
// is reserved at the bound (max is wazero's, larger).
func (m *memoryBound) Allocate(_, _ uint64) experimental.LinearMemory {
	return &linearMemory{bound: m, reserved: reserve(m.limit)}
}

// linearMemory is one instance's memory: reserved address space
// (osMemory) committed up to the length the module asked for.
type linearMemory struct {
	bound    *memoryBound
	reserved osMemory
	buf      []byte
}

// Reallocate implements experimental.LinearMemory: the memory grows in
// place; nil (the module's grow fails) past the bound or when the system
// refuses.
func (l *linearMemory) Reallocate(size uint64) []byte {
	if int64(size) > l.bound.limit || l.reserved == nil {
		l.bound.refused.Store(true)
		return nil
	}
	buf, ok := l.reserved.commit(int(size))
	if !ok {
		l.bound.refused.Store(true)
		return nil
	}
	l.buf = buf
	l.bound.size.Store(int64(size))
	return buf
}

// Free implements experimental.LinearMemory (the instance was closed).
func (l *linearMemory) Free() {
	if l.reserved != nil {
		l.reserved.release()
		l.reserved = nil
	}
	l.buf = nil
	l.bound.size.Store(0)
}

// osMemory is address space reserved from the system (memory_*.go).
type osMemory interface {
	// commit makes the first size bytes usable and returns them.
	commit(size int) ([]byte, bool)
	// release returns the whole reservation.
	release()
}

// heapMemory backs the module with Go slices where no reservation is
// available (or the reservation failed): it grows by copying, never past
// limit.
type heapMemory struct {
	buf   []byte
	limit int
}

func (h *heapMemory) commit(size int) ([]byte, bool) {
	if size <= cap(h.buf) {
		h.buf = h.buf[:size]
		return h.buf, true
	}
	nb := make([]byte, size, min(size+size/4, max(size, h.limit)))
	copy(nb, h.buf)
	h.buf = nb
	return nb, true
}

func (h *heapMemory) release() { h.buf = nil }
