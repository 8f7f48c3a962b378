// Package schedule registers the daily indexing run with the system's
// scheduler (`fumibako schedule install|show|remove`, issue 36 item 3):
// Task Scheduler through schtasks on Windows, a systemd user timer on
// Linux (crontab where systemd does not answer), launchd on macOS. The
// command line is written in each scheduler's own format, or the path is
// refused before anything is registered (format.go states each format's
// escapes), and what was registered is read back and taken off again when
// it is not what was meant (verify.go).
//
// It writes the scheduler's files it owns (the systemd unit files, the
// launchd plist) and nothing of the workspace; the CLI prints its results.
// It imports nothing of fumibako's.
package schedule
