//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used returns the user plus system CPU time of the whole process so far
// (getrusage(2), RUSAGE_SELF), including the garbage collector's threads.
// It returns 0 if the system call fails.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
