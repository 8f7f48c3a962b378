package schedule

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
)

// After registering, install reads back what the scheduler holds and
// compares it with what it meant to register (issue 36 item 3): the
// crontab line (crontab -l), the unit files (read back, and checked by
// systemd-analyze verify where it is installed), the task's program,
// arguments and time (schtasks /Query /XML), the plist's arguments. When
// they differ, the entry is taken off again (the previous crontab is put
// back) and install fails: it never says 登録しました for an entry that is
// not the one meant.

// Messages of a failed check (after msgSchedFailed's "（scheduler）: ").
const (
	msgSchedMismatch = "登録した内容を読み直すと、登録しようとしたものと違っていたため、取り消しました。登録しようとしたもの: %s ／ 登録されていたもの: %s"
	msgSchedInvalid  = "%s が登録内容の誤りを報告したため、取り消しました: %s"
	msgSchedUnread   = "登録した内容を読み直せなかったため、取り消しました: %s"
	msgSchedNothing  = "（なし）"
)

// schedCheckError is a registration that read back wrong; Error is the
// Japanese text, Unwrap the English detail.
type schedCheckError struct {
	msg   string
	cause error
}

func (e *schedCheckError) Error() string { return e.msg }
func (e *schedCheckError) Unwrap() error { return e.cause }

func mismatch(want, got string) error {
	if got == "" {
		got = msgSchedNothing
	}
	return &schedCheckError{msg: fmt.Sprintf(msgSchedMismatch, visible(want), visible(got))}
}

func unread(err error) error {
	return &schedCheckError{msg: fmt.Sprintf(msgSchedUnread, err), cause: err}
}

// crontab returns the user's crontab: "" when there is none (crontab -l
// fails saying "no crontab for …"), an error when it cannot be read, so
// that a table that could not be read is never replaced.
func (s *Scheduler) crontab() (string, error) {
	out, err := s.Run("", "crontab", "-l")
	if err != nil {
		if strings.Contains(out, "no crontab") {
			return "", nil
		}
		return "", err
	}
	return out, nil
}

// verifyCron checks that the crontab holds exactly one fumibako line, and
// that it is want.
func (s *Scheduler) verifyCron(want string) error {
	tab, err := s.crontab()
	if err != nil {
		return unread(err)
	}
	var ours []string
	for _, l := range strings.Split(tab, "\n") {
		if strings.Contains(l, strings.TrimSpace(CronMark)) {
			ours = append(ours, l)
		}
	}
	if len(ours) != 1 || ours[0] != want {
		return mismatch(want, strings.Join(ours, " ／ "))
	}
	return nil
}

// verifySystemd reads the unit files back and, where systemd-analyze is
// installed, lets it check them: an error, or a warning naming one of
// them, is a failure.
func (s *Scheduler) verifySystemd(files map[string]string) error {
	var paths []string
	for path, want := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return unread(err)
		}
		if string(data) != want {
			return mismatch(want, string(data))
		}
		paths = append(paths, path)
	}
	slices.Sort(paths)
	// Not --user: the system mode needs no running user manager (nor
	// XDG_RUNTIME_DIR) and reads these files the same way.
	out, err := s.Run("", "systemd-analyze", append([]string{"verify"}, paths...)...)
	if errors.Is(err, exec.ErrNotFound) {
		return nil
	}
	if err != nil || strings.Contains(out, taskName+".") {
		if err == nil {
			err = errors.New("warning")
		}
		detail := strings.TrimSpace(out)
		if detail == "" {
			detail = err.Error()
		}
		return &schedCheckError{msg: fmt.Sprintf(msgSchedInvalid, "systemd-analyze verify", visible(detail)), cause: err}
	}
	return nil
}

// taskXML is what verifyWindows reads of `schtasks /Query /XML`.
type taskXML struct {
	Start []string `xml:"Triggers>CalendarTrigger>StartBoundary"`
	Exec  []struct {
		Command   string `xml:"Command"`
		Arguments string `xml:"Arguments"`
	} `xml:"Actions>Exec"`
}

// verifyWindows checks the registered task: one program, exe, with the
// index arguments, daily at h:m.
func (s *Scheduler) verifyWindows(h, m int) error {
	out, err := s.Run("", "schtasks", "/Query", "/TN", taskName, "/XML")
	if err != nil {
		return unread(err)
	}
	var t taskXML
	dec := xml.NewDecoder(strings.NewReader(decodeToolOutput([]byte(out), s.ToolEncoding)))
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	if err := dec.Decode(&t); err != nil {
		return unread(fmt.Errorf("schtasks /Query /XML: %w", err))
	}
	want := append([]string{s.Exe}, s.indexArgs()...)
	var got []string
	if len(t.Exec) == 1 {
		got = append([]string{strings.Trim(t.Exec[0].Command, `"`)}, splitWinArgs(t.Exec[0].Arguments)...)
	}
	at := fmt.Sprintf("T%02d:%02d:00", h, m)
	if !slices.Equal(got, want) || len(t.Start) != 1 || !strings.Contains(t.Start[0], at) {
		gotText := strings.Join(got, " ")
		if len(t.Start) > 0 {
			gotText += " " + strings.Join(t.Start, " ")
		}
		return mismatch(strings.Join(want, " ")+" "+at, gotText)
	}
	return nil
}

// decodeToolOutput turns a Windows tool's output into UTF-8: UTF-16 (a
// BOM, or NULs as in UTF-16 ASCII), UTF-8 as it is, else enc (the console's
// code page; Shift_JIS when it is not known).
func decodeToolOutput(b []byte, enc encoding.Encoding) string {
	if len(b) >= 2 && (bytes.HasPrefix(b, []byte{0xff, 0xfe}) || b[1] == 0) {
		b = bytes.TrimPrefix(b, []byte{0xff, 0xfe})
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		return string(utf16.Decode(u))
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if utf8.Valid(b) {
		return string(b)
	}
	if enc == nil {
		enc = japanese.ShiftJIS
	}
	if d, err := enc.NewDecoder().Bytes(b); err == nil {
		return string(d)
	}
	return string(b)
}

// plistXML is what verifyLaunchd reads back of the plist.
type plistXML struct {
	Strings []string `xml:"dict>array>string"`
}

// verifyLaunchd reads the plist back and checks its program arguments.
func (s *Scheduler) verifyLaunchd() error {
	data, err := os.ReadFile(s.plistPath())
	if err != nil {
		return unread(err)
	}
	var p plistXML
	if err := xml.Unmarshal(data, &p); err != nil {
		return unread(fmt.Errorf("%s: %w", filepath.Base(s.plistPath()), err))
	}
	want := append([]string{s.Exe}, s.indexArgs()...)
	if !slices.Equal(p.Strings, want) {
		return mismatch(strings.Join(want, " "), strings.Join(p.Strings, " "))
	}
	return nil
}
