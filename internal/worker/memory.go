package worker

// Memory caps of the worker processes when no explicit setting is given
// (DESIGN.md, worker memory: "cap a share of the machine's memory"): the
// workers together may use a quarter of the machine's physical memory,
// each at least MemFloor (a worker needs room for a large sheet) and at
// most MemCeiling (what one file is ever given). On an 8 GB office PC with
// two workers that is 1 GiB each (2 GiB of 8); on 24 GB, 2 GiB each. When
// the total cannot be read, each worker gets MemCeiling.
const (
	MemShareDivisor       = 4 // the workers share total/MemShareDivisor
	MemFloor        int64 = 512 << 20
	MemCeiling      int64 = 2 << 30
)

// DefaultMemLimit returns the per-worker memory cap for a machine with
// total bytes of physical memory (0 = unknown) running workers workers.
func DefaultMemLimit(total uint64, workers int) int64 {
	if total == 0 {
		return MemCeiling
	}
	if workers < 1 {
		workers = 1
	}
	share := total / MemShareDivisor / uint64(workers)
	switch {
	case share < uint64(MemFloor):
		return MemFloor
	case share > uint64(MemCeiling):
		return MemCeiling
	}
	return int64(share)
}
