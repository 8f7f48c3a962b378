package indexer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fumibako/fumibako/internal/content"
	"github.com/fumibako/fumibako/internal/ingestlist"
	"github.com/fumibako/fumibako/internal/journal"
	"github.com/fumibako/fumibako/internal/worker"
	"github.com/fumibako/fumibako/internal/workspace"
)

// failingBody is a body index whose publish of a folder holding "毒"
// fails.
type failingBody struct{ nopBody }

func (b *failingBody) Publish(dir string, removed []string) error {
	if strings.Contains(dir, "毒") {
		return errors.New("bodyindex: cannot write the index")
	}
	return b.nopBody.Publish(dir, removed)
}

// poisonFixture is a root src with a.txt, 毒/b.txt, 毒/c.txt and 良/d.txt.
func poisonFixture(t *testing.T) (*workspace.Workspace, Options) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "src")
	for _, f := range []string{"a.txt", "毒/b.txt", "毒/c.txt", "良/d.txt"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.Open(filepath.Join(base, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	return ws, Options{
		Workspace: ws,
		Settings:  &workspace.Settings{Roots: []workspace.Root{{Name: "src", Path: root}}},
		Workers:   1,
		Grace:     time.Millisecond,
		newSlot: func(worker.Config, string) slot {
			return scriptedSlot{script: answer, seen: &seen}
		},
	}
}

// rowsOf lists the ingest list's rows as "relpath state error".
func rowsOf(t *testing.T, ws *workspace.Workspace) []string {
	t.Helper()
	l, err := ingestlist.ReadFile(ws.IngestList())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range l.Rows {
		out = append(out, fmt.Sprintf("%s %s %s", r.RelPath, r.State, r.Error))
	}
	return out
}

// TestIssue36PoisonedFolder: a folder whose publish fails, or that the
// previous runs died in twice while publishing it, is set aside: its
// waiting files become 失敗 with a message, their per-file folders go,
// and the other folders are published; the run completes.
func TestIssue36PoisonedFolder(t *testing.T) {
	killed := fmt.Sprintf(msgFolderKilled, publishLimit)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, ws *workspace.Workspace, opt Options) Options
		rows  []string
		log   string
	}{
		{
			name: "publish fails",
			setup: func(t *testing.T, ws *workspace.Workspace, opt Options) Options {
				opt.Body = &failingBody{}
				return opt
			},
			rows: []string{`src\a.txt 済 `, `src\毒\b.txt 失敗 ` + msgFolderFailed, `src\毒\c.txt 失敗 ` + msgFolderFailed, `src\良\d.txt 済 `},
			log:  fmt.Sprintf(logFolderFailed, 2, `src\毒`) + "\r\n" + fmt.Sprintf(msgDetail, "bodyindex: cannot write the index"),
		},
		{
			name: "killed twice while publishing",
			setup: func(t *testing.T, ws *workspace.Workspace, opt Options) Options {
				// A first run ingests everything (its body index merges
				// nothing, so the per-file folders stay); its journal is
				// then made to read as if the process had died twice
				// while publishing 毒: no 出 for it, two 試.
				opt.Body = &nopBody{}
				if _, err := Run(opt); err != nil {
					t.Fatal(err)
				}
				data, err := os.ReadFile(ws.Journal())
				if err != nil {
					t.Fatal(err)
				}
				j := strings.Replace(string(data), "出\tsrc\\毒\r\n", "", 1) + "試\tsrc\\毒\t1\r\n試\tsrc\\毒\t2\r\n"
				if err := os.WriteFile(ws.Journal(), []byte(j), 0o644); err != nil {
					t.Fatal(err)
				}
				body := &nopBody{}
				opt.Body = body
				t.Cleanup(func() {
					for _, d := range body.published {
						if strings.Contains(d, "毒") {
							t.Errorf("the folder set aside was published: %s", d)
						}
					}
				})
				return opt
			},
			rows: []string{`src\a.txt 済 `, `src\毒\b.txt 失敗 ` + killed, `src\毒\c.txt 失敗 ` + killed, `src\良\d.txt 済 `},
			log:  fmt.Sprintf(logFolderKilled, publishLimit, 2, `src\毒`),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, opt := poisonFixture(t)
			opt = tc.setup(t, ws, opt)
			sum, err := Run(opt)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			check(t, "rows", rowsOf(t, ws), tc.rows)
			if sum.Failed != 2 || len(sum.Failures) != 2 {
				t.Errorf("summary: %d failed, failures %v", sum.Failed, sum.Failures)
			}
			poison := content.Dir(ws.ContentRoot(), `src\毒`)
			if names := fileFolders(poison); len(names) != 0 {
				t.Errorf("per-file folders left in the folder set aside: %v", names)
			}
			if log, _ := os.ReadFile(ws.Log()); !strings.Contains(string(log), tc.log) {
				t.Errorf("log lacks %q:\n%s", tc.log, log)
			}
			// The next run has nothing left of it: no folder to publish,
			// no count, the failures skipped.
			jl, err := journal.ReadFile(ws.Journal())
			if err != nil {
				t.Fatal(err)
			}
			rec := jl.Recover(nil)
			if len(rec.Unpublished) != 0 || len(rec.Publishing) != 0 {
				t.Errorf("next start would publish %v, counts %v", rec.Unpublished, rec.Publishing)
			}
			opt.Body = &failingBody{}
			sum, err = Run(opt)
			if err != nil || sum.Failed != 0 || sum.Succeeded != 0 {
				t.Errorf("next run: %+v, %v", sum, err)
			}
			check(t, "rows after the next run", rowsOf(t, ws), tc.rows)
		})
	}
}

// faultyBody is a body index whose publish of a folder holding "毒"
// meets a full disk while faulty is set.
type faultyBody struct {
	nopBody
	faulty bool
}

func (b *faultyBody) Publish(dir string, removed []string) error {
	if b.faulty && strings.Contains(dir, "毒") {
		return &workspace.FaultError{Kind: workspace.FaultFull, Path: dir, Err: errors.New("no space left on device")}
	}
	return b.nopBody.Publish(dir, removed)
}

// TestIssue36FaultsDoNotPoison: a publish that comes back with a
// workspace fault, however often and in however many runs, is no death:
// the folder is never set aside, and once the disk has room it is
// published and its files are 済.
func TestIssue36FaultsDoNotPoison(t *testing.T) {
	ws, opt := poisonFixture(t)
	body := &faultyBody{faulty: true}
	opt.Body = body
	for run := 1; run <= 3; run++ {
		if _, err := Run(opt); workspace.WriteFault(err) == nil {
			t.Fatalf("run %d: %v, want the workspace fault", run, err)
		}
		for _, r := range rowsOf(t, ws) {
			if strings.Contains(r, "失敗") {
				t.Fatalf("run %d: %s", run, r)
			}
		}
	}
	body.faulty = false
	if _, err := Run(opt); err != nil {
		t.Fatal(err)
	}
	check(t, "rows", rowsOf(t, ws), []string{`src\a.txt 済 `, `src\毒\b.txt 済 `, `src\毒\c.txt 済 `, `src\良\d.txt 済 `})
	published := false
	for _, d := range body.published {
		published = published || strings.HasSuffix(d, "毒")
	}
	if !published {
		t.Errorf("the folder was never published: %v", body.published)
	}
}
