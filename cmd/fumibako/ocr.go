package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/fumibako/fumibako/internal/extract"
	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/ocr"
	"github.com/fumibako/fumibako/internal/workspace"
)

// The OCR engine seam (issue 29). The coordinator looks the engine up at
// the start of every run (indexer.FindOCR, from the settings'
// tesseractPath) and passes the program it found to its workers
// (`__worker --ocr PROGRAM`), which make their recognizer with
// newRecognizer: Tesseract (internal/ocr), found by ocr.Find and checked
// by ocr.New (its languages); no engine, or an unusable one: files that
// need OCR are ingested with their text layer and wait for OCR.
var (
	findOCR = ocr.Find
	// checkOCR runs what each worker's ocr.New checks (--version and the
	// languages), for the coordinator to tell an engine found but unusable
	// (indexer.CheckOCR).
	checkOCR = func(program string) error {
		_, err := ocr.New(program, os.TempDir())
		return err
	}
	newRecognizer = func(program, scratch string) (extract.Recognizer, error) {
		t, err := ocr.New(program, scratch)
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return t, nil
	}
)

var errNoOCR = errors.New("ocr: no OCR engine")

func init() {
	// A function, not findOCR's value: the test hooks replace findOCR in
	// their own init, which may run after this one.
	indexer.FindOCR = func(configured string) (string, error) { return findOCR(configured) }
	indexer.CheckOCR = func(program string) error { return checkOCR(program) }
}

// workerOCR is the worker's ServeConfig.OCR for the program the
// coordinator found ("" none): nil when no recognizer can be made, so
// that the files wait for OCR instead of failing. The recognizer's
// scratch is a folder of its own in the worker's (whose x is emptied
// after every file), removed with the run's scratch.
func workerOCR(program, scratch string) func() extract.Recognizer {
	if program == "" {
		return nil
	}
	return func() extract.Recognizer {
		dir := filepath.Join(scratch, "ocr")
		workspace.MkdirAll(dir) // a failure shows as the recognizer's
		rec, err := newRecognizer(program, dir)
		if err != nil || rec == nil {
			return nil
		}
		return rec
	}
}
