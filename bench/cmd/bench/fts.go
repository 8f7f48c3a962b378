package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fumibako/fumibako/bench/searchcorpus"
)

// buildFTS builds (once per corpus) an SQLite database with an FTS5 table
// t(path, line) using the trigram tokenizer, one row per line, with the
// sqlite3 command.
func buildFTS(c *searchcorpus.Corpus) (string, error) {
	sqlite, err := exec.LookPath("sqlite3")
	if err != nil {
		return "", fmt.Errorf("sqlite3 not found (Debian: apt-get install sqlite3)")
	}
	db := filepath.Join(c.Dir, "fts5.db")
	done := db + ".done"
	if _, err := os.Stat(done); err == nil {
		return db, nil
	}
	os.Remove(db)
	fmt.Println("building the FTS5 (trigram) anchor …")
	t0 := time.Now()
	dat := filepath.Join(c.Dir, "fts5.dat")
	f, err := os.Create(dat)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriter(f)
	err = filepath.WalkDir(c.TextRoot(), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(c.TextRoot(), path)
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			w.WriteString(rel)
			w.WriteByte(0x1f)
			w.WriteString(strings.NewReplacer("\x1e", " ", "\x1f", " ").Replace(line))
			w.WriteByte(0x1e)
		}
		return nil
	})
	if err == nil {
		err = w.Flush()
	}
	f.Close()
	if err != nil {
		return "", err
	}
	script := "CREATE VIRTUAL TABLE t USING fts5(path UNINDEXED, line, tokenize='trigram');\n" +
		".mode ascii\n.separator \"\\037\" \"\\036\"\n.import " + dat + " t\n"
	cmd := exec.Command(sqlite, db)
	cmd.Stdin = strings.NewReader(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("sqlite3: %v: %s", err, stderr.String())
	}
	os.Remove(dat)
	st, err := os.Stat(db)
	if err != nil {
		return "", err
	}
	fmt.Printf("  FTS5 database %s (%.2f bytes per text byte), built in %.1f s\n", mb(st.Size()), float64(st.Size())/float64(c.TextBytes), time.Since(t0).Seconds())
	os.WriteFile(done, nil, 0o644)
	return db, nil
}

// runFTS runs one query with the sqlite3 command, at most cap+1 rows as
// fumibako does, output to /dev/null.
func runFTS(db string, q searchcorpus.Query) error {
	cmd := exec.Command("sqlite3", db, "SELECT path, line FROM t WHERE "+q.FTS+" LIMIT 10001;")
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("sqlite3 %s: %v: %s", q.FTS, err, stderr.String())
	}
	return nil
}
