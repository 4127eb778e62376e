//go:build !unix

package cputime

import "time"

// Used returns 0 where getrusage(2) is not available.
func Used() time.Duration { return 0 }
