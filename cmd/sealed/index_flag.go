package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
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

// indexArg makes c take the ledger index of the entry it works on either
// as its one positional argument or as --index (sealed ledger get,
// prove and check-result accept both, the positional form first in their
// help), storing it in dst. It refuses (exit 2) neither, both, more than
// one argument, and an index that is not a whole number >= 0; verb names
// the command in the errors.
func indexArg(c *cobra.Command, verb string, dst *int64) {
	indexVar(c.Flags(), dst, "index", "the entry's `INDEX` (the same as the positional INDEX)")
	c.Args = func(cmd *cobra.Command, args []string) error {
		flagSet := cmd.Flags().Changed("index")
		switch {
		case len(args) > 1:
			return usageErrorf("%s takes one INDEX, got %d arguments", verb, len(args)).
				withHint("sealed ledger %s 3, or sealed ledger %s --index 3", verb, verb)
		case len(args) == 1 && flagSet:
			return usageErrorf("%s got INDEX %q and --index %d; give one of them", verb, args[0], *dst)
		case len(args) == 0 && !flagSet:
			return usageErrorf("%s needs an INDEX, the entry's ledger index (0, 1, 2, ...)", verb).
				withHint("sealed ledger %s 3, or sealed ledger %s --index 3", verb, verb)
		case len(args) == 1:
			i, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || i < 0 {
				return usageErrorf("INDEX %q: expected a ledger index (0, 1, 2, ...)", args[0])
			}
			*dst = i
		}
		if *dst < 0 {
			return usageErrorf("--index %d: expected a ledger index (0, 1, 2, ...)", *dst)
		}
		return nil
	}
}
