package main

import (
	"errors"
	"fmt"

	"github.com/sealedhq/sealed/ledger"
)

// Exit codes of the sealed command.
const (
	exitOK     = 0 // success
	exitFailed = 1 // a check failed: mismatch, bad proof, weak commitment found, differences
	exitUsage  = 2 // bad usage or input
)

// exitError is an error that carries the process exit code and, optionally,
// a hint printed on its own line after the error.
type exitError struct {
	code int
	msg  string
	hint string
}

func (e *exitError) Error() string { return e.msg }

// usageErrorf reports bad usage or input (exit 2).
func usageErrorf(format string, args ...any) *exitError {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// failedf reports a check that failed (exit 1).
func failedf(format string, args ...any) *exitError {
	return &exitError{code: exitFailed, msg: fmt.Sprintf(format, args...)}
}

// withHint returns e with a hint line.
func (e *exitError) withHint(format string, args ...any) *exitError {
	e.hint = fmt.Sprintf(format, args...)
	return e
}

// errSilentFailure is returned by a command that has already printed its
// verdict (a mismatch, a failed check) and only needs to exit 1.
var errSilentFailure = errors.New("check failed")

// errSilentUsage is returned by a command that has already printed what
// was wrong with its input and only needs to exit 2.
var errSilentUsage = &exitError{code: exitUsage, msg: "bad input"}

// exitCode maps an error returned by a command to the process exit code.
// Errors that are not *exitError are input errors (exit 2): every package
// error reaching the CLI describes input the user gave.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errSilentFailure) {
		return exitFailed
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if errors.Is(err, ledger.ErrTampered) {
		// Not bad input, whichever verb met it: the store holds what the
		// log did not write, or a file SQLite finds damaged.
		return exitFailed
	}
	return exitUsage
}

// storeHint is the hint of a library error that says what is wrong with
// the ledger's store rather than with the input: "" for any other.
func storeHint(err error) string {
	switch {
	case errors.Is(err, ledger.ErrTampered):
		return "run 'sealed ledger audit' on it"
	case errors.Is(err, ledger.ErrStoreFull):
		return "free space where the ledger is stored (or raise the file size limit), then run the command again: what was stored before is kept"
	}
	return ""
}
