package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/rules/bargain"
	"github.com/spf13/cobra"
)

func init() { register(newSeedCmd) }

// newSeedCmd builds `sealed seed`: make and check game-server seed
// commitments.
func newSeedCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "seed",
		Short: "Make and check game-server RNG seed commitments (docs/commitments.md)",
		Long: `A seed is 32 random bytes written as 64 lowercase hex digits. Its
commitment is the SHA-256 of those 64 ASCII characters, so
printf %s SEED | sha256sum checks it.`,
	}
	c.AddCommand(seedNewCmd(a, runSeedNew), seedCheckCmd(a, runSeedCheck), seedEngineCmd(a, runSeedEngine))
	return c
}

// seedNewOptions are the inputs of `sealed seed new`.
type seedNewOptions struct {
	Out   string // --out: write the seed there (mode 0600)
	Force bool
}

// seedNewCmd builds `sealed seed new` with runF as its action.
func seedNewCmd(a *app, runF func(*app, *seedNewOptions) error) *cobra.Command {
	o := &seedNewOptions{}
	c := &cobra.Command{
		Use:   "new [--out FILE]",
		Short: "Draw a new seed and print it with its commitment",
		Long: `Draw 32 bytes from the system's cryptographic random source and print the
seed (keep it secret until the match is over) and its commitment (post it
before the match). With --out the seed is written to FILE (mode 0600) and
only the commitment is printed; with --out - the seed and a newline go to
stdout and the commitment to stderr.

Draw a new seed for every match: a seed is committed once (its reveal
makes it public), and the ledger refuses a seed-commit whose commitment an
earlier seed-commit holds.`,
		Args: noArgs("seed new"),
		RunE: func(_ *cobra.Command, _ []string) error { return runF(a, o) },
	}
	c.Flags().StringVarP(&o.Out, "out", "o", "", "write the seed to `FILE` (mode 0600; - for stdout) and print only the commitment")
	c.Flags().BoolVar(&o.Force, "force", false, "overwrite the --out file if it exists")
	return c
}

// seedJSON is the --json output of the seed verbs.
type seedJSON struct {
	Seed       string   `json:"seed,omitempty"`
	Commitment string   `json:"commitment"`
	Out        string   `json:"out,omitempty"`
	Match      *bool    `json:"match,omitempty"`
	Got        string   `json:"got,omitempty"`
	Hints      []string `json:"hints,omitempty"`
}

func runSeedNew(a *app, o *seedNewOptions) error {
	s, err := commit.NewSeed()
	if err != nil {
		return fmt.Errorf("cannot draw a seed: %v", err)
	}
	c := s.Commitment()
	if o.Out == stdioName {
		if a.json {
			return usageErrorf("--out - writes the seed to stdout, where --json would print too").
				withHint("drop --json, or give --out a file")
		}
		if _, err := fmt.Fprintln(a.out, s); err != nil {
			return err
		}
		_, err := fmt.Fprintf(a.errOut, "commitment (post this before the match):\n%s\n", c)
		return err
	}
	if o.Out != "" {
		if err := writeSecretFile(o.Out, []byte(s.String()+"\n"), o.Force); err != nil {
			return err
		}
		fmt.Fprintf(a.errOut, "seed written to %s (mode 0600): keep it secret until the match is over\n", o.Out)
		if a.json {
			return a.printJSON(seedJSON{Commitment: c.String(), Out: o.Out})
		}
		_, err := fmt.Fprintln(a.out, c)
		return err
	}
	if a.json {
		return a.printJSON(seedJSON{Seed: s.String(), Commitment: c.String()})
	}
	_, err = fmt.Fprintf(a.out, "seed (keep it secret until the match is over):\n%s\ncommitment (post this before the match):\n%s\n", s, c)
	return err
}

// seedCheckOptions are the inputs of `sealed seed check`.
type seedCheckOptions struct {
	Seed       string // --seed
	SeedFile   string // --seed-file
	Commitment string // --commitment
}

// seedCheckCmd builds `sealed seed check` with runF as its action.
func seedCheckCmd(a *app, runF func(*app, *seedCheckOptions) error) *cobra.Command {
	o := &seedCheckOptions{}
	c := &cobra.Command{
		Use:   "check (--seed S | --seed-file F) --commitment C",
		Short: "Check a revealed seed against its posted commitment",
		Long: `Check that the SHA-256 of the revealed seed's 64 lowercase hex characters is
the posted commitment. On a mismatch, common slips that would have matched
are named (hashing the 32 raw bytes, uppercase hex, a trailing newline).

Exit status: 0 match, 1 mismatch, 2 bad input.`,
		Example: `  sealed seed check --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
    --commitment 6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b`,
		Args: noArgs("seed check"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := oneSeedFlag(cmd, "seed check needs the revealed seed"); err != nil {
				return err
			}
			if !cmd.Flags().Changed("commitment") {
				return usageErrorf("seed check needs --commitment, the posted seed commitment (64 hex digits)").
					withHint("it is the SHA-256 posted before the match, as 'sealed seed new' printed it")
			}
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.Seed, "seed", "", "the revealed seed: 64 hex digits")
	c.Flags().StringVar(&o.SeedFile, "seed-file", "", "read the revealed seed from `FILE` (- for stdin)")
	c.Flags().StringVar(&o.Commitment, "commitment", "", "the posted commitment: 64 hex digits, optionally prefixed sha256:")
	return c
}

func runSeedCheck(a *app, o *seedCheckOptions) error {
	s, err := readSeedFlags(a, o.Seed, o.SeedFile)
	if err != nil {
		return err
	}
	c, err := commit.ParseCommitment(o.Commitment)
	if err != nil {
		return usageErrorf("--commitment: %v", err)
	}
	got := s.Commitment()
	match := got == c
	var hints []commit.Hint
	if !match {
		hints = commit.SeedHints(s, c)
	}
	if a.json {
		if err := a.printJSON(seedJSON{Seed: s.String(), Commitment: c.String(), Match: &match, Got: got.String(), Hints: hintNames(hints)}); err != nil {
			return err
		}
	} else if match {
		fmt.Fprintf(a.out, "match: the seed's commitment is %s\n", got)
	} else {
		fmt.Fprintf(a.out, "mismatch: the seed's commitment is %s, the posted one is %s\n", got, c)
		for _, h := range hints {
			fmt.Fprintf(a.out, "near miss: the posted hash is SHA-256 of the seed's %s; the rule is SHA-256 of its 64 lowercase hex characters, so this is still a mismatch\n", h.Name)
		}
	}
	if !match {
		return errSilentFailure
	}
	return nil
}

// seedEngineOptions are the inputs of `sealed seed engine`.
type seedEngineOptions struct {
	Seed     string // --seed
	SeedFile string // --seed-file
	// Inputs are the episode's contributions and drand round: the engine
	// seed comes from the match seed they give (docs/rng.md, "The match
	// seed").
	Inputs matchInputFlags
}

// seedEngineCmd builds `sealed seed engine` with runF as its action.
func seedEngineCmd(a *app, runF func(*app, *seedEngineOptions) error) *cobra.Command {
	o := &seedEngineOptions{}
	c := &cobra.Command{
		Use:   "engine (--seed S | --seed-file F)",
		Short: "Print the Negotiation Games engine's integer seed derived from a seed",
		Long: `The Negotiation Games engine takes a 31-bit integer seed and commits to
nothing; a commitment to a 31-bit number could be brute-forced. Instead,
draw a 256-bit seed with 'sealed seed new', post its commitment before the
episode, and run the engine with the integer this prints: the first 4
bytes, big-endian, of HMAC-SHA256(key = seed, "negotiation-engine/seed"
0x00 and 8 zero bytes), top bit cleared (docs/replays.md, "A seed the engine
can commit to"). After the episode reveal the seed; 'sealed replay check
--seed S --seed-commitment C' then checks the engine's replay against both.

An episode whose players contributed client seeds, or that took a drand
round, takes its engine seed from its match seed, not from the server's
seed: give the same --contribution and --beacon-file as 'sealed replay
play' takes (docs/rng.md, "The match seed"), or the match seed itself as
--seed.`,
		Example: `  sealed seed new --out seed.txt      # prints the commitment to post
  sealed seed engine --seed-file seed.txt
  sealed seed engine --seed-file seed.txt --contribution '1:abc' --beacon-file round.json`,
		Args: noArgs("seed engine"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := oneSeedFlag(cmd, "seed engine needs the seed"); err != nil {
				return err
			}
			return runF(a, o)
		},
	}
	c.Flags().StringVar(&o.Seed, "seed", "", "the seed: 64 hex digits")
	c.Flags().StringVar(&o.SeedFile, "seed-file", "", "read the seed from `FILE` (- for stdin)")
	o.Inputs.register(c.Flags())
	return c
}

func runSeedEngine(a *app, o *seedEngineOptions) error {
	s, err := readSeedFlags(a, o.Seed, o.SeedFile)
	if err != nil {
		return err
	}
	ms, err := o.Inputs.matchSeed(a, s, bargain.Seats)
	if err != nil {
		return err
	}
	n, _ := bargain.EngineSeed(ms[:]) // a commit.Seed is 32 bytes
	if a.json {
		out := struct {
			EngineSeed int64  `json:"engine_seed"`
			Commitment string `json:"commitment"`
			MatchSeed  string `json:"match_seed,omitempty"`
		}{EngineSeed: n, Commitment: s.Commitment().String()}
		if ms != s {
			out.MatchSeed = ms.String()
		}
		return a.printJSON(out)
	}
	_, err = fmt.Fprintln(a.out, n)
	return err
}

// readSeedFlags returns the seed given with --seed or --seed-file (a file
// or - for stdin, at most 1024 bytes), the same way for every seed verb.
func readSeedFlags(a *app, seed, seedFile string) (commit.Seed, error) {
	text, flag := seed, "--seed"
	if seedFile != "" {
		flag = "--seed-file " + seedFile
		b, err := readInputFile(a, seedFile, 1024)
		if tl := (*tooLargeError)(nil); errors.As(err, &tl) {
			return commit.Seed{}, usageErrorf("--seed-file %s is larger than 1024 bytes; expected a seed of 64 hex digits", seedFile)
		}
		if err != nil {
			return commit.Seed{}, usageErrorf("cannot read the seed: %s: %v", seedFile, err)
		}
		text = string(b)
	}
	s, err := commit.ParseSeed(text)
	if err != nil && !utf8.ValidString(text) {
		// commit's message shows such a byte as U+FFFD; quote what was given.
		if seedFile != "" {
			return commit.Seed{}, usageErrorf("--seed-file %s holds bytes that are not UTF-8 text (%.80q); expected 64 hex digits (32 bytes)", seedFile, text)
		}
		return commit.Seed{}, usageErrorf("--seed %q is not valid UTF-8; expected 64 hex digits (32 bytes)", text)
	}
	if err != nil {
		return commit.Seed{}, seedError(flag, text, err)
	}
	return s, nil
}

// parseSeedFlag parses the seed given to flag (such as --seed), with a
// usage error and a hint when it is not 64 hex digits.
func parseSeedFlag(flag, text string) (commit.Seed, error) {
	s, err := commit.ParseSeed(text)
	if err != nil {
		return s, seedError(flag, text, err)
	}
	return s, nil
}

// seedError words commit.ParseSeed's err for the seed text given to flag,
// with a hint: drop a 0x prefix, or what a seed looks like.
func seedError(flag, text string, err error) error {
	e := usageErrorf("%s: %v", flag, err)
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		return e.withHint("drop the 0x prefix: a seed is the 64 hex digits alone")
	}
	return e.withHint("a seed is 64 hex digits, as 'sealed seed new' prints it")
}

// noArgs is cobra.NoArgs with a usage error that names the verb.
func noArgs(verb string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			e := usageErrorf("%s takes no arguments, got %q", verb, args[0])
			if _, err := commit.ParseSeed(args[0]); err == nil {
				return e.withHint("give the seed with --seed")
			}
			return e.withHint("run 'sealed %s --help' for its flags", verb)
		}
		return nil
	}
}

// oneSeedFlag requires exactly one of --seed and --seed-file: with neither
// the error is need ("seed engine needs the seed") naming both; with both
// it says to give only one.
func oneSeedFlag(cmd *cobra.Command, need string) error {
	hasSeed, hasFile := cmd.Flags().Changed("seed"), cmd.Flags().Changed("seed-file")
	switch {
	case hasSeed && hasFile:
		return usageErrorf("give the seed with only one of --seed or --seed-file, not both").
			withHint("--seed takes the 64 hex digits; --seed-file a file holding them (- for stdin)")
	case !hasSeed && !hasFile:
		return usageErrorf("%s: one of --seed or --seed-file", need).
			withHint("--seed takes the 64 hex digits; --seed-file a file holding them (- for stdin)")
	}
	return nil
}
