//go:build !windows && !darwin

package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestIssue18OpenerFailure: an opener that fails is an error, not success.
func TestIssue18OpenerFailure(t *testing.T) {
	for _, tt := range []struct {
		name string
		cmd  *exec.Cmd
		want string // "" = success
	}{
		{"succeeds", exec.Command("true"), ""},
		{"fails", exec.Command("sh", "-c", "exit 3"), "終了コード 3"},
		{"missing", exec.Command("fumibako-no-such-opener"), "が見つかりません"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := runOpener(tt.cmd)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("runOpener = %v, want %q", err, tt.want)
			}
		})
	}
}
