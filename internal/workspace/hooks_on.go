//go:build testhooks

package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// injectedFault makes workspace writes fail on purpose, so end-to-end tests
// can prove that a full or read-only workspace stops the run without
// blaming a file (issue 15). It exists only in binaries built with -tags
// testhooks. FUMIBAKO_TEST_WSFAULT holds "[worker/]<step>:<n>:<errno>[:once]":
// the n-th operation of that step in this process fails with errno
// (ENOSPC, EROFS, EIO or EACCES), and so does every later write of any
// step, as on a disk that is full or read-only from then on (removals
// still work on a full disk); with ":once" only that one operation fails.
// Worker processes inherit the variable and count their own steps; a spec
// starting with "worker/" applies only in workers, one without it only in
// the coordinator (and the other commands). Steps, from the path and the
// operation (stepOf): list-rewrite, list-rename, list-append,
// journal-create, journal-append, pending-remove, run-stats, settings,
// scratch, place-tsv, batch (the batch files: their folder, header and
// records), swap, publish, summary, remove, other.
func injectedFault(op, path string) error {
	faultOnce.Do(parseFault)
	if faultSpec.step == "" {
		return nil
	}
	faultMu.Lock()
	defer faultMu.Unlock()
	if !faultTripped {
		if stepOf(op, path) != faultSpec.step {
			return nil
		}
		faultSeen++
		if faultSeen < faultSpec.n {
			return nil
		}
		faultTripped = true
		return &fs.PathError{Op: "injected " + op, Path: path, Err: faultSpec.errno}
	}
	if faultSpec.once || op == opRemove && faultSpec.errno == syscall.ENOSPC {
		return nil
	}
	return &fs.PathError{Op: "injected " + op, Path: path, Err: faultSpec.errno}
}

var (
	faultOnce    sync.Once
	faultMu      sync.Mutex
	faultSeen    int
	faultTripped bool
	faultSpec    struct {
		step  string
		n     int
		errno syscall.Errno
		once  bool
	}
)

func parseFault() {
	spec := os.Getenv("FUMIBAKO_TEST_WSFAULT")
	spec, forWorker := strings.CutPrefix(spec, "worker/")
	if forWorker != slices.Contains(os.Args, "__worker") {
		return
	}
	parts := strings.Split(spec, ":")
	if len(parts) < 3 {
		return
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 1 {
		return
	}
	errnos := map[string]syscall.Errno{"ENOSPC": syscall.ENOSPC, "EROFS": syscall.EROFS, "EIO": syscall.EIO, "EACCES": syscall.EACCES}
	errno, ok := errnos[parts[2]]
	if !ok {
		return
	}
	faultSpec.step, faultSpec.n, faultSpec.errno = parts[0], n, errno
	faultSpec.once = len(parts) > 3 && parts[3] == "once"
}

// stepOf names the write step an operation on path belongs to.
func stepOf(op, path string) string {
	base := filepath.Base(path)
	slash := filepath.ToSlash(path)
	switch {
	case op == opRemove:
		return "remove"
	case strings.HasPrefix(base, "ingest_status.tsv"):
		switch op {
		case opAppend:
			return "list-append"
		case opRename:
			return "list-rename"
		}
		return "list-rewrite"
	case strings.HasPrefix(base, "ingest.tsv") && strings.Contains(slash, "/journal/"):
		if op == opAppend {
			return "journal-append"
		}
		return "journal-create"
	case strings.HasPrefix(base, "pending_remove.tsv"):
		return "pending-remove"
	case strings.HasPrefix(base, "run_stats.json"):
		return "run-stats"
	case strings.HasPrefix(base, "settings.json"):
		return "settings"
	case strings.HasPrefix(base, ".fumibako-summary."):
		return "summary"
	case strings.HasPrefix(base, ".fumibako-index"):
		return "publish"
	case strings.Contains(slash, "/store/batch/") || strings.HasSuffix(slash, "/store/batch"):
		return "batch"
	case strings.Contains(slash, "/stage/"):
		return "place-tsv"
	case strings.Contains(slash, "/work/tmp/"):
		return "scratch"
	case strings.Contains(slash, "/store/content/"):
		return "swap"
	}
	return "other"
}
