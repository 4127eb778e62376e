package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"
)

// indexValue is a ledger index flag (--index, --commit, --seed-commit,
// --references) that records whether it was given: it stores into an
// int64 that holds -1 until the flag is given, and the help shows no
// default (no "(default -1)" sentinel). Set refuses what is not a whole
// number; the range (>= 0) is checked by the verb.
type indexValue struct {
	p   *int64
	set bool
}

var _ pflag.Value = (*indexValue)(nil)

// indexVar defines an index flag storing into p (-1 until given).
func indexVar(fs *pflag.FlagSet, p *int64, name, usage string) {
	*p = -1
	fs.Var(&indexValue{p: p}, name, usage)
}

// String is the value as given, or "" when not given.
func (v *indexValue) String() string {
	if v == nil || !v.set {
		return ""
	}
	return strconv.FormatInt(*v.p, 10)
}

// Set parses a decimal index.
func (v *indexValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a ledger index; expected a whole number, 0 or more", s)
	}
	*v.p, v.set = n, true
	return nil
}

// Type names the value in the help.
func (v *indexValue) Type() string { return "int" }
