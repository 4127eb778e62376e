//go:build !linux

package pgtest

import (
	"errors"
	"syscall"
)

// runAs is the user and group a child process runs as.
type runAs struct{ Uid, Gid uint32 }

// credential reports that pgtest runs servers only on Linux (Debian's
// postgresql package), so that tests skip elsewhere.
func credential() (*runAs, error) {
	return nil, &notInstalledError{searched: debianRoot + "/*/bin (and pgtest runs servers only on Linux)"}
}

func procAttr(*runAs) *syscall.SysProcAttr { return nil }

func checkSearchable(string) error { return errors.New("pgtest: runs servers only on Linux") }
