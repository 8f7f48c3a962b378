//go:build !windows

package workspace

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes an exclusive flock; held reports that another open file
// description holds it.
func tryLock(f *os.File) (held bool, err error) {
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}

func unlock(f *os.File) { unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// readersLock is false: a rename over a file that a reader has open is no
// error here, so readers of settings.json take no lock.
const readersLock = false

// settingsLocker takes the settings lock for a writer: an exclusive
// flock.
type settingsLocker struct{ f *os.File }

// try takes the lock without waiting; false while another holds it.
func (l *settingsLocker) try(write bool) (bool, error) {
	held, err := tryLock(l.f)
	return err == nil && !held, err
}

// abandon closes the lock file of an attempt that gave up.
func (l *settingsLocker) abandon() {
	if l.f != nil {
		l.f.Close()
	}
}
