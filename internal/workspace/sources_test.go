package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fumibako/fumibako/internal/workspace"
)

// TestIndexSources: what each edit does to indexSources (issue 30).
func TestIndexSources(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	for _, d := range []string{"a", "b", "c"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	at := func(d string) string { return filepath.Join(base, d) }
	tests := []struct {
		name    string
		edit    func(s *workspace.Settings) error
		sources string // name=path(+ when confirmed);… afterwards
		msg     string // substring of the refusal, "" = accepted
	}{
		{"received (as an import writes it)", func(s *workspace.Settings) error {
			s.IndexSources = append(s.IndexSources, workspace.IndexSource{Name: "受領", Path: `\\srv\受領`})
			return nil
		}, `受領=\\srv\受領`, ""},
		{"confirmed by folder source", func(s *workspace.Settings) error { return s.SetSource("受領", at("a")) }, "受領=" + at("a") + "+", ""},
		{"crawl root re-pointed", func(s *workspace.Settings) error {
			if _, err := s.AddRoot(at("b"), "営業", ws, nil); err != nil {
				return err
			}
			return s.SetSource("営業", at("c"))
		}, "受領=" + at("a") + "+;営業=" + at("c") + "+", ""},
		{"rename carries the entry", func(s *workspace.Settings) error { return s.RenameRoot("営業", "営業部") }, "受領=" + at("a") + "+;営業部=" + at("c") + "+", ""},
		{"move drops it (the root is the folder again)", func(s *workspace.Settings) error { _, err := s.MoveRoot("営業部", at("c"), ws); return err }, "受領=" + at("a") + "+", ""},
		{"move onto another root refused", func(s *workspace.Settings) error {
			s.AddRoot(at("b"), "経理", ws, nil)
			_, err := s.MoveRoot("営業部", at("b"), ws)
			return err
		}, "受領=" + at("a") + "+", "既にあります"},
		{"move into the workspace refused", func(s *workspace.Settings) error { _, err := s.MoveRoot("営業部", ws, ws); return err }, "受領=" + at("a") + "+", "ワークスペース"},
		{"adding its folder under its name makes it a root", func(s *workspace.Settings) error {
			_, err := s.AddRoot(at("a"), "受領", ws, nil)
			return err
		}, "", ""},
		{"illegal name refused", func(s *workspace.Settings) error { return s.SetSource("a/b", at("a")) }, "", "使えません"},
		{"removal drops it", func(s *workspace.Settings) error {
			s.SetSource("他", at("a"))
			s.MarkRemoved(workspace.Root{Name: "他"})
			return nil
		}, "", ""},
	}
	s := &workspace.Settings{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.edit(s)
			if tt.msg == "" && err != nil || tt.msg != "" && (err == nil || !strings.Contains(err.Error(), tt.msg)) {
				t.Fatalf("edit = %v, want %q", err, tt.msg)
			}
			var got []string
			for _, e := range s.IndexSources {
				v := e.Name + "=" + e.Path
				if e.Confirmed {
					v += "+"
				}
				got = append(got, v)
			}
			if strings.Join(got, ";") != tt.sources {
				t.Errorf("indexSources = %q, want %q", strings.Join(got, ";"), tt.sources)
			}
		})
	}
}
