package extract

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fumibako/fumibako/internal/officefile"
)

// Recover turns a panic of a native reader into a corrupt-file
// failure, so one hostile file never takes the worker down.
func Recover(res **Result, err *error) {
	if r := recover(); r != nil {
		*res = nil
		*err = Corrupt(fmt.Errorf("panic while reading: %v", r))
	}
}

// Failure maps a native reader's error to the file's failure:
// *Error and cancellation as they are, anything else to the corrupt-file
// message.
func Failure(err error) error {
	if err == nil {
		return nil
	}
	if f, ok := FailureAsIs(err); ok {
		return f
	}
	return Corrupt(err)
}

// FailureAsIs returns what the readers' error mappings (Failure,
// xls.failure, ooxml.Failure) pass on unchanged: the *Error in err's chain,
// or err itself when it is a cancellation. ok is false for any other
// error.
func FailureAsIs(err error) (f error, ok bool) {
	var fe *Error
	switch {
	case errors.As(err, &fe):
		return fe, true
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err, true
	}
	return nil, false
}

// CheckUnprotected fails an encrypted file before anything parses it
// (reference/extraction.md §10) and a file whose first bytes are not the
// format the reader expects.
func CheckUnprotected(r io.ReaderAt, size int64, want officefile.Format) error {
	d, err := officefile.Detect(r, size)
	if err != nil {
		return Corrupt(err)
	}
	switch d.Protection {
	case officefile.Password:
		return Fail(MsgPassword, fmt.Errorf("extract: %s", d.Reason))
	case officefile.Rights:
		return Fail(MsgRights, fmt.Errorf("extract: %s", d.Reason))
	}
	if d.Format != want {
		return Corrupt(fmt.Errorf("extract: expected %s content, found %s", want, d.Format))
	}
	return nil
}
