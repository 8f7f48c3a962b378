//go:build windows

package worker

import (
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// setProcessGroup starts the worker in a new console process group, so a
// Ctrl-C in the console reaches only the coordinator, which stops its
// workers itself.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// jobTree is one Job Object per worker: the worker and every process it
// starts (LibreOffice) belong to it. JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
// ends them all when the job's last handle closes, so a killed coordinator
// (whose handles the system closes) leaves no worker behind;
// JOB_OBJECT_LIMIT_PROCESS_MEMORY makes an allocation past the cap fail in
// any process of the job, and the job's completion port says so.
type jobTree struct {
	job, port windows.Handle
	mu        sync.Mutex
	tripped   bool
}

// Job object messages (winnt.h), not in x/sys/windows.
const (
	jobMsgProcessMemoryLimit = 9  // JOB_OBJECT_MSG_PROCESS_MEMORY_LIMIT
	jobMsgJobMemoryLimit     = 10 // JOB_OBJECT_MSG_JOB_MEMORY_LIMIT
)

// jobAssociateCompletionPort is JOBOBJECT_ASSOCIATE_COMPLETION_PORT.
type jobAssociateCompletionPort struct {
	CompletionKey  uintptr
	CompletionPort windows.Handle
}

// osTree puts the started worker into a new job. The worker starts no
// process before its first request, which comes after this returns, so its
// children are always born inside the job.
func osTree(cmd *exec.Cmd, memLimit int64) (procTree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("worker: create job object: %w", err)
	}
	t := &jobTree{job: job}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if noSystemGuard() {
		info.BasicLimitInformation.LimitFlags = 0
	}
	if memLimit > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_PROCESS_MEMORY
		info.ProcessMemoryLimit = uintptr(memLimit)
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		t.release()
		return nil, fmt.Errorf("worker: set job limits: %w", err)
	}
	if t.port, err = windows.CreateIoCompletionPort(windows.InvalidHandle, 0, 0, 1); err != nil {
		t.release()
		return nil, fmt.Errorf("worker: create job completion port: %w", err)
	}
	assoc := jobAssociateCompletionPort{CompletionKey: uintptr(job), CompletionPort: t.port}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectAssociateCompletionPortInformation,
		uintptr(unsafe.Pointer(&assoc)), uint32(unsafe.Sizeof(assoc))); err != nil {
		t.release()
		return nil, fmt.Errorf("worker: attach job completion port: %w", err)
	}
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		t.release()
		return nil, fmt.Errorf("worker: open worker process: %w", err)
	}
	defer windows.CloseHandle(ph)
	if err := windows.AssignProcessToJobObject(job, ph); err != nil {
		t.release()
		return nil, fmt.Errorf("worker: put worker into its job: %w", err)
	}
	return t, nil
}

func (t *jobTree) kill() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job != 0 {
		windows.TerminateJobObject(t.job, 1)
	}
}

// overMemory reads the job's messages queued so far (never waits).
func (t *jobTree) overMemory() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.port != 0 && !t.tripped {
		var msg uint32
		var key uintptr
		var ov *windows.Overlapped
		if windows.GetQueuedCompletionStatus(t.port, &msg, &key, &ov, 0) != nil {
			break
		}
		t.tripped = msg == jobMsgProcessMemoryLimit || msg == jobMsgJobMemoryLimit
	}
	return t.tripped
}

func (t *jobTree) release() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job != 0 {
		windows.CloseHandle(t.job)
		t.job = 0
	}
	if t.port != 0 {
		windows.CloseHandle(t.port)
		t.port = 0
	}
}

// The Job Object enforces the memory cap; the supervisor has no RSS watch
// on Windows.
func rssSupported() bool { return false }

func processRSS(pid int) int64 { return 0 }

// ProcessAlive reports whether a process with pid exists.
func ProcessAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return false
	}
	return code == 259 // STILL_ACTIVE
}
