package web

import (
	"testing"

	"github.com/fumibako/fumibako/internal/web/indexing"
)

func TestDateTime(t *testing.T) {
	for in, want := range map[string]string{
		"2024/04/02 09:05:00": "2024/04/02 09:05",
		"2024/04/01 09:05:00": "2024/04/01 09:05",
		"":                    "",
		"garbage":             "garbage",
	} {
		if got := dateTime(in); got != want {
			t.Errorf("dateTime(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHostAllowedOnLAN: a server bound to every address accepts IP
// literals and localhost on its port, never a name (DNS rebinding).
func TestHostAllowedOnLAN(t *testing.T) {
	s := &Server{addr: "[::]:8080"}
	for host, want := range map[string]bool{
		"192.168.1.10:8080": true,
		"127.0.0.1:8080":    true,
		"localhost:8080":    true,
		"[fe80::1]:8080":    true,
		"fileserver:8080":   false,
		"evil.example:8080": false,
		"192.168.1.10:8081": false,
		"192.168.1.10":      false,
	} {
		if got := s.hostAllowed(host); got != want {
			t.Errorf("hostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
	if (&Server{}).hostAllowed("127.0.0.1:80") {
		t.Errorf("a server without an address accepts requests")
	}
}

func TestCleanPath(t *testing.T) {
	for in, want := range map[string]string{
		` "C:\共有\営業" `: `C:\共有\営業`,
		"/srv/営業":      "/srv/営業",
		`"`:            `"`,
	} {
		if got := cleanPath(in); got != want {
			t.Errorf("cleanPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRunStatus (issue 32): an index the run covers shows its share of
// the run, 取り込み不要 when the plan gives it none, 取り込み中 while the
// run crawls.
func TestRunStatus(t *testing.T) {
	v := indexing.View{Running: true, Indexes: []indexing.IndexRun{{Name: "営業", Total: 5, Done: 2}, {Name: "総務"}}}
	for name, want := range map[string]string{"営業": "取り込み中 2/5", "総務": "取り込み不要"} {
		if got := runStatus(v, name); got != want {
			t.Errorf("runStatus(%s) = %q, want %q", name, got, want)
		}
	}
	if got := runStatus(indexing.View{Running: true}, "営業"); got != "取り込み中" {
		t.Errorf("runStatus while crawling = %q", got)
	}
}
