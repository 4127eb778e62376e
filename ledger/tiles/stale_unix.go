//go:build unix

package tiles

import (
	"errors"
	"syscall"
)

// processGone reports whether no process of that id runs on this host.
func processGone(pid int) bool {
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
