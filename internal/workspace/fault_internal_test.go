package workspace

import "testing"

// TestWindowsCodes checks the tables of Windows error codes on every
// system (the codes are plain numbers).
func TestWindowsCodes(t *testing.T) {
	tests := []struct {
		code    uintptr
		kind    FaultKind
		sharing bool
	}{
		{winAccessDenied, FaultDenied, true},
		{winSharingViolation, FaultInUse, true},
		{winLockViolation, FaultInUse, true},
		{winDiskFull, FaultFull, false},
		{winHandleDiskFull, FaultFull, false},
		{winWriteProtect, FaultReadOnly, false},
		{winCRC, FaultIO, false},
		{winIODevice, FaultIO, false},
		{winNetnameDeleted, FaultIO, false},
		{winNotSameDevice, FaultSplit, false},
		{2, "", false},   // ERROR_FILE_NOT_FOUND
		{3, "", false},   // ERROR_PATH_NOT_FOUND
		{123, "", false}, // ERROR_INVALID_NAME
	}
	for _, tt := range tests {
		kind, ok := windowsFaultKind(tt.code)
		if kind != tt.kind || ok != (tt.kind != "") {
			t.Errorf("windowsFaultKind(%d) = %q, %v, want %q", tt.code, kind, ok, tt.kind)
		}
		if got := sharingCode(tt.code); got != tt.sharing {
			t.Errorf("sharingCode(%d) = %v, want %v", tt.code, got, tt.sharing)
		}
	}
}
