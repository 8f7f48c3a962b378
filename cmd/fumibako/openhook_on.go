//go:build testhooks

package main

import (
	"os"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/desktop"
	"github.com/fumibako/fumibako/internal/web"
)

// newOpener is the desktop of this system; in binaries built with -tags
// testhooks, when $FUMIBAKO_TEST_OPENED names a file, it appends there
// the path of each file opened (a folder shown: the folder's path)
// instead, so the end-to-end tests see what would be opened on every
// system, and the mode of each file opened to the same name plus
// ".modes".
func newOpener(tmp string) web.Opener {
	if rec := os.Getenv("FUMIBAKO_TEST_OPENED"); rec != "" {
		return recordOpener(rec)
	}
	return desktop.New(tmp)
}

type recordOpener string

func (r recordOpener) Open(t desktop.Target) (string, error) {
	if err := appendLine(string(r)+".modes", string(t.Mode)+"\t"+t.Place+"\t"+t.Cell); err != nil {
		return "", err
	}
	return "", appendLine(string(r), t.Path)
}

func (r recordOpener) OpenFolder(file string) error { return appendLine(string(r), filepath.Dir(file)) }

func appendLine(name, line string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(line + "\n")
	return err
}

// openURL opens a page in the default browser (serve --open), or records
// it as newOpener's files are.
func openURL(tmp, u string) error {
	if rec := os.Getenv("FUMIBAKO_TEST_OPENED"); rec != "" {
		return appendLine(rec, u)
	}
	return desktop.New(tmp).OpenURL(u)
}
