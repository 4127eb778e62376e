//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package demo

import (
	"errors"
	"os"
	"syscall"
)

// Hold marks the ledger at path as in use until the returned release is
// called: it takes a shared flock(2) on the database file. SQLite locks
// with fcntl(2), which is independent of flock on these systems, so the
// ledger is unaffected. Build refuses to replace a held ledger (ErrInUse).
// It returns an error when the file cannot be opened or locked.
func Hold(path string) (release func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	return f.Close, nil // closing the file releases the lock
}

// inUse reports whether another open file description holds a flock on
// path (Hold), by trying an exclusive lock without waiting.
func inUse(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
