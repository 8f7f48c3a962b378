package main

import (
	"errors"
	"fmt"

	"github.com/fumibako/fumibako/internal/indexer"
	"github.com/fumibako/fumibako/internal/search"
	"github.com/fumibako/fumibako/internal/share"
	"github.com/fumibako/fumibako/internal/source"
	"github.com/fumibako/fumibako/internal/textfold"
	"github.com/fumibako/fumibako/internal/workspace"
)

// Exit codes, the same for every command (README "Exit codes"; DESIGN.md:
// index exits 0 done, 1 fatal error, 2 stopped).
const (
	exitOK    = 0 // done; search found something; help shown
	exitFatal = 1 // a fatal error; search found nothing
	exitUsage = 2 // a command line that cannot run; stopped (Ctrl-C) or declined
)

// Outcomes that are not failures to print: the command has said what
// happened already and only the exit code is left to choose.
var (
	errNoHits  = errors.New("cmd: no hits")  // search: 見つかりませんでした (exit 1)
	errStopped = errors.New("cmd: stopped")  // Ctrl-C or a declined run (exit 2)
	errShown   = errors.New("cmd: reported") // a fatal error already printed (exit 1)
)

// report prints what explain says about err on stderr and returns the
// exit code: the one place that does so (STYLE.md §5).
func (e *env) report(err error) int {
	code, lines := e.explain(err)
	for _, l := range lines {
		fmt.Fprintln(e.stderr, l)
	}
	return code
}

// explain maps a command's error to its exit code and the lines the user
// reads: user errors their Japanese text (the same text the web UI shows,
// indexer.UserText); an internal error a Japanese line, and its English
// chain only with --verbose.
func (e *env) explain(err error) (code int, lines []string) {
	var usage *usageError
	var fatal *fatalError
	var query *search.QueryError
	var src *source.Error
	var refusedErr *share.RefusedError
	switch {
	case err == nil:
		return exitOK, nil
	case errors.Is(err, errNoHits), errors.Is(err, errShown):
		return exitFatal, nil
	case errors.Is(err, errStopped):
		return exitUsage, nil
	case errors.As(err, &usage):
		hint := fmt.Sprintf(msgSeeHelp, usage.cmd)
		if usage.cmd == "" {
			hint = msgSeeTopHelp
		}
		return exitUsage, []string{fmt.Sprintf(msgErrorHead, usage.msg), hint}
	case errors.As(err, &query):
		return exitUsage, []string{fmt.Sprintf(msgErrorHead, query.Msg), fmt.Sprintf(msgSeeHelp, "search")}
	case errors.As(err, &src):
		lines = []string{fmt.Sprintf(msgErrorHead, src.Msg)}
		switch src.Kind {
		case source.Confirm, source.Missing, source.Unknown:
			lines = append(lines, fmt.Sprintf(msgSourceHint, src.Folder.Index))
			if src.Kind == source.Confirm && src.Folder.Network {
				lines = append(lines, source.MsgNetworkWarn)
			}
		}
		if e.verbose && src.Err != nil {
			lines = append(lines, fmt.Sprintf(msgInternalDetail, src.Err))
		}
		return exitFatal, lines
	case errors.As(err, &refusedErr):
		// An export or import refused (a zip that fails a check): the
		// zip's fault, told in Japanese, nothing written (exit 1).
		lines = []string{fmt.Sprintf(msgErrorHead, refusedErr.Msg)}
		if e.verbose && refusedErr.Cause != nil {
			lines = append(lines, fmt.Sprintf(msgInternalDetail, refusedErr.Cause))
		}
		return exitFatal, lines
	case errors.As(err, &fatal):
		lines = []string{fmt.Sprintf(msgErrorHead, fatal.msg)}
		if e.verbose && fatal.cause != nil {
			lines = append(lines, fmt.Sprintf(msgInternalDetail, fatal.cause))
		}
		return exitFatal, lines
	}
	text, ok := indexer.UserText(err)
	if !ok {
		if e.verbose {
			return exitFatal, []string{fmt.Sprintf(msgErrorHead, msgInternal), fmt.Sprintf(msgInternalDetail, err)}
		}
		return exitFatal, []string{fmt.Sprintf(msgErrorHead, msgInternal), msgInternalHint}
	}
	var folderErr *workspace.FolderError
	if errors.As(err, &folderErr) && folderErr.Missing != "" {
		if near, ok := textfold.Nearest(folderErr.Missing, folderErr.Known); ok {
			text += fmt.Sprintf(msgDidYouMean, near)
		}
	}
	lines = []string{fmt.Sprintf(msgErrorHead, text)}
	if e.verbose && errors.Unwrap(err) != nil {
		lines = append(lines, fmt.Sprintf(msgInternalDetail, errors.Unwrap(err)))
	}
	return exitFatal, lines
}

// fatalError is a refusal of the command with a Japanese text (exit 1);
// cause, if any, is shown with --verbose.
type fatalError struct {
	msg   string
	cause error
}

func (e *fatalError) Error() string { return e.msg }
func (e *fatalError) Unwrap() error { return e.cause }

func fatalf(format string, a ...any) error { return &fatalError{msg: fmt.Sprintf(format, a...)} }
