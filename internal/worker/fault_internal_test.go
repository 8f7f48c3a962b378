package worker

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/workspace"
)

// TestScratchFault: a reader's error is the workspace's fault only when it
// comes from writing the scratch; reading the source stays the file's.
func TestScratchFault(t *testing.T) {
	scratch := filepath.Join(t.TempDir(), "w1")
	source := "/share/営業/見積.xls"
	inScratch := filepath.Join(scratch, "x", "lo-in", "見積.xls")
	pe := func(path string, errno syscall.Errno) error {
		return &fs.PathError{Op: "write", Path: path, Err: errno}
	}
	tests := []struct {
		name string
		err  error
		want workspace.FaultKind // "" = the file's failure
	}{
		{"copy into a full scratch", pe(inScratch, syscall.ENOSPC), workspace.FaultFull},
		{"full, no path", fmt.Errorf("convert: %w", syscall.ENOSPC), workspace.FaultFull},
		{"read-only scratch", pe(inScratch, syscall.EROFS), workspace.FaultReadOnly},
		{"I/O error in the scratch", pe(inScratch, syscall.EIO), workspace.FaultIO},
		{"scratch not writable", &extract.Error{Msg: "取り込めません", Cause: pe(inScratch, syscall.EACCES)}, workspace.FaultDenied},
		{"I/O error reading the source", pe(source, syscall.EIO), ""},
		{"source not readable", &extract.Error{Msg: "開けません", Cause: pe(source, syscall.EACCES)}, ""},
		{"a sibling of the scratch", pe(scratch+"2/x", syscall.EIO), ""},
		{"corrupt file", extract.Corrupt(fmt.Errorf("bad record")), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := scratchFault(tt.err, scratch)
			switch {
			case tt.want == "" && f != nil:
				t.Fatalf("scratchFault(%v) = %+v, want the file's failure", tt.err, f)
			case tt.want != "" && (f == nil || f.Kind != tt.want):
				t.Fatalf("scratchFault(%v) = %+v, want %s", tt.err, f, tt.want)
			}
		})
	}
}

// TestFaultAcrossProtocol: a worker's fault answer, sent as JSON, comes
// back to the coordinator as a Faulted result carrying the fault.
func TestFaultAcrossProtocol(t *testing.T) {
	stage := "/ws/work/tmp/h-1/w1/stage/3/見積.xlsx/見積.tsv"
	resp := writeFailed(Response{ID: 3}, fmt.Errorf("content: %w", &fs.PathError{Op: "write", Path: stage, Err: syscall.ENOSPC}))
	if resp.OK || resp.Fault != workspace.FaultFull || resp.FaultPath != stage || resp.Postponed {
		t.Fatalf("writeFailed = %+v, want a full-disk fault on %s", resp, stage)
	}
	data, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var back Response
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	res := faultResult(back)
	if res.Outcome != Faulted || res.Fault == nil || res.Fault.Kind != workspace.FaultFull || res.Fault.Path != stage {
		t.Fatalf("faultResult = %+v, want Faulted with the full-disk fault", res)
	}
	if res.Msg != res.Fault.Error() || workspace.WriteFault(res.Fault) != res.Fault {
		t.Errorf("result message %q, want the fault's Japanese text", res.Msg)
	}
	// A place name the file system refuses is the file's failure.
	resp = writeFailed(Response{ID: 4}, &fs.PathError{Op: "open", Path: stage, Err: syscall.EINVAL})
	if resp.Fault != "" || resp.Msg == "" {
		t.Errorf("writeFailed(EINVAL) = %+v, want a per-file failure", resp)
	}
}
