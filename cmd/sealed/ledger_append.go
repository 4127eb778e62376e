package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/verify"
	"github.com/spf13/cobra"
)

func init() { ledgerSubcommands = append(ledgerSubcommands, newLedgerAppendCmd) }

// ledgerAppendOptions are the inputs of `sealed ledger append`: either a
// whole JSON body (--body) or the fields of one entry kind.
type ledgerAppendOptions struct {
	DB, Key     string
	BodyFile    string // --body FILE|-: a JSON entry body
	Kind        string
	Fields      ledger.Body
	Commit      int64 // --commit (reveal, edit); -1 if not given
	SeedRef     int64 // --seed-commit (seed-reveal); -1 if not given
	Text        string
	TextSet     bool
	TextFile    string // --text-file: the revealed bytes, exactly
	Config      string // --config JSON object
	Summary     string // --summary JSON object
	Replay      string // --replay FILE: store it and set replay_sha256
	Seat        int64  // --seat (contribution); -1 if not given
	ClientSeed  string // --client-seed (contribution)
	BeaconRound int64  // --beacon-round (seed-commit)
	// BeaconRoundSet: --beacon-round was given (a round of 0 is given to
	// the ledger, which refuses it, not dropped).
	BeaconRoundSet bool
	PlayAtEntry    int64 // --play-at-entry (seed-commit); -1 if not given
}

func newLedgerAppendCmd(a *app, g *ledgerGlobal) *cobra.Command {
	return ledgerAppendCmd(a, g, runLedgerAppend)
}

func ledgerAppendCmd(a *app, g *ledgerGlobal, runF func(*app, *ledgerAppendOptions) error) *cobra.Command {
	o := &ledgerAppendOptions{}
	f := &o.Fields
	c := &cobra.Command{
		Use:   "append (--body FILE|- | --kind KIND [fields])",
		Short: "Append an entry (commit, reveal, edit, seed-commit, seed-reveal, result, contribution)",
		Long: `Append one entry and print its index once it is durable. Give the entry as
a JSON body (--body FILE, or - for stdin), or as --kind and the fields of
that kind (docs/ledger.md lists them):

  commit       --player --action-type --channel --commitment
  reveal       --commit N --player (--text T | --text-file F)
  edit         --commit N --player
  seed-commit  --game --match-id --rules-version --config JSON --commitment
               [--play-at TIME | --play-at-entry N]
               [--beacon-chain HASH --beacon-round R]
               [--reveal-by TIME] [--operator NAME]
  seed-reveal  --seed-commit N --seed HEX [--beacon-signature HEX]
  result       --game --match-id (--replay FILE | --replay-sha256 HEX) --summary JSON
  contribution --seed-commit N --seat S --client-seed TEXT

A contribution is a player's client seed for a match (1 to 64 bytes): it
counts when integrated after the seed-commit and before play begins: its
--play-at instant, or the entry --play-at-entry names (an index after the
seed-commit's own: contributions must take lower indexes; docs/rng.md,
"Which contributions count"). A seed-commit naming a drand round
(--beacon-round; --beacon-chain defaults to quicknet's hash) is refused
when that round is already published. Its seed-reveal may record the
round's signature (--beacon-signature, the "signature" of 'sealed beacon
get'), which must verify: an engine replay cannot carry the round, and
'ledger check-result' takes it from there.

Any kind may carry --posted-at (RFC 3339): when the post appeared in the
game's own channel; it may not be later than the integration time. A
duplicate (same player, action type and commitment; or an identical
entry) is refused and names the existing index.`,
		Example: `  sealed ledger append --kind commit --player ann --action-type bid --channel '#auctions' --commitment 5e8c...
  sealed ledger append --kind reveal --commit 0 --player ann --text-file bid.txt
  echo '{"kind":"edit","commit":0,"player":"ann"}' | sealed ledger append --body -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.DB = g.DB
			if o.Key == "" {
				o.Key = defaultKeyFile(o.DB)
			}
			o.TextSet = cmd.Flags().Changed("text")
			if !cmd.Flags().Changed("commit") {
				o.Commit = -1
			}
			if !cmd.Flags().Changed("seed-commit") {
				o.SeedRef = -1
			}
			if !cmd.Flags().Changed("seat") {
				o.Seat = -1
			}
			if !cmd.Flags().Changed("play-at-entry") {
				o.PlayAtEntry = -1
			}
			if o.BodyFile != "" && cmd.Flags().NFlag() > countSet(cmd, "body", "key", "db", "json") {
				return usageErrorf("--body takes the whole entry: give no other entry flags")
			}
			if o.BodyFile == "" && o.Kind == "" {
				return usageErrorf("append needs --body FILE or --kind KIND").withHint("run 'sealed ledger append --help' for the fields of each kind")
			}
			if err := requireUTF8(cmd, "kind", "player", "action-type", "channel", "commitment", "posted-at",
				"game", "match-id", "rules-version", "config", "seed", "replay-sha256", "summary",
				"client-seed", "beacon-chain", "play-at", "reveal-by", "operator", "beacon-signature"); err != nil {
				return err
			}
			o.BeaconRoundSet = cmd.Flags().Changed("beacon-round")
			if cmd.Flags().Changed("player") {
				if err := checkPlayer("player", o.Fields.Player); err != nil {
					return err
				}
			}
			return runF(a, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Key, "key", "", "the ledger's private key `FILE` "+keyFileHelp)
	fl.StringVar(&o.BodyFile, "body", "", "read the JSON entry body from `FILE` (- for stdin)")
	fl.StringVar(&o.Kind, "kind", "", "entry `KIND`: commit, reveal, edit, seed-commit, seed-reveal, result, contribution")
	fl.StringVar(&f.Player, "player", "", "the player")
	fl.StringVar(&f.ActionType, "action-type", "", "the secret action's type (commit)")
	fl.StringVar(&f.Channel, "channel", "", "where the commitment was posted (commit)")
	fl.StringVar(&f.Commitment, "commitment", "", "SHA-256 commitment, hex (commit, seed-commit)")
	fl.StringVar(&f.PostedAt, "posted-at", "", "RFC 3339 `TIME` the post appeared in the game's channel")
	indexVar(fl, &o.Commit, "commit", "`INDEX` of the commit entry (reveal, edit)")
	fl.StringVar(&o.Text, "text", "", "the revealed text, exactly (reveal)")
	fl.StringVar(&o.TextFile, "text-file", "", "read the revealed bytes, exactly, from `FILE` (- for stdin) (reveal)")
	fl.StringVar(&f.Game, "game", "", "auction or bargain (seed-commit, result)")
	fl.StringVar(&f.MatchID, "match-id", "", "the match id (seed-commit, result)")
	fl.StringVar(&f.RulesVersion, "rules-version", "", "the rules version, e.g. auction-0.2 (seed-commit)")
	fl.StringVar(&o.Config, "config", "", "the match config, a JSON object (seed-commit)")
	indexVar(fl, &o.SeedRef, "seed-commit", "`INDEX` of the seed-commit entry (seed-reveal)")
	fl.StringVar(&f.Seed, "seed", "", "the revealed seed, 64 hex (seed-reveal)")
	fl.StringVar(&o.Replay, "replay", "", "store the replay `FILE` (- for stdin) and record its SHA-256 (result)")
	fl.StringVar(&f.ReplaySHA256, "replay-sha256", "", "SHA-256 of a replay already stored (result)")
	fl.StringVar(&o.Summary, "summary", "", "the result summary, a JSON object (result)")
	indexVar(fl, &o.Seat, "seat", "the contributing `SEAT`, 0-based (contribution)")
	fl.StringVar(&o.ClientSeed, "client-seed", "", "the client seed, 1 to 64 bytes exactly as posted (contribution)")
	fl.StringVar(&f.PlayAt, "play-at", "", "RFC 3339 `TIME` play begins; contributions count only before it (seed-commit)")
	indexVar(fl, &o.PlayAtEntry, "play-at-entry", "`INDEX` of the entry that opens play, after the seed-commit's; contributions count only below it (seed-commit)")
	fl.StringVar(&f.BeaconSignature, "beacon-signature", "", "the `HEX` signature of the drand round the seed-commit named (seed-reveal)")
	fl.StringVar(&f.BeaconChain, "beacon-chain", "", "drand chain `HASH` (seed-commit; default quicknet with --beacon-round)")
	fl.Int64Var(&o.BeaconRound, "beacon-round", 0, "drand `ROUND` whose randomness goes into the match seed (seed-commit)")
	fl.StringVar(&f.RevealBy, "reveal-by", "", "RFC 3339 `TIME` by which the seed will be revealed (seed-commit)")
	fl.StringVar(&f.Operator, "operator", "", "the game server or operator committing (seed-commit)")
	return c
}

// countSet counts which of the named flags were set.
func countSet(cmd *cobra.Command, names ...string) int {
	n := 0
	for _, name := range names {
		if cmd.Flags().Changed(name) || cmd.InheritedFlags().Changed(name) {
			n++
		}
	}
	return n
}

// buildBody turns the per-field flags into a body (validated by the
// ledger).
func buildBody(a *app, o *ledgerAppendOptions) (*ledger.Body, error) {
	b := o.Fields
	b.Kind = ledger.Kind(o.Kind)
	if o.Commit >= 0 {
		b.Commit = &o.Commit
	}
	if o.SeedRef >= 0 {
		b.SeedCommit = &o.SeedRef
	}
	if o.Seat >= 0 {
		b.Seat = &o.Seat
	}
	if o.PlayAtEntry >= 0 {
		b.PlayAtEntry = &o.PlayAtEntry
	}
	if o.ClientSeed != "" {
		b.ClientSeed = &o.ClientSeed
	}
	if o.BeaconRoundSet {
		b.BeaconRound = &o.BeaconRound
		if b.BeaconChain == "" {
			b.BeaconChain = beacon.Quicknet.Hash
		}
	}
	switch {
	case o.TextSet && o.TextFile != "":
		return nil, usageErrorf("give --text or --text-file, not both")
	case o.TextSet:
		setRevealText(&b, []byte(o.Text))
	case o.TextFile != "":
		raw, err := readInput(a, o.TextFile, ledger.MaxBodySize)
		if err != nil {
			return nil, err
		}
		setRevealText(&b, raw)
	}
	if b.ActionType != "" {
		var warning string
		if b.ActionType, warning = canonicalActionType(b.ActionType); warning != "" {
			fmt.Fprintf(a.errOut, "warning: %s\n", warning)
		}
	}
	for _, j := range []struct {
		flag string
		v    string
		dst  *json.RawMessage
	}{{"--config", o.Config, &b.Config}, {"--summary", o.Summary, &b.Summary}} {
		if j.v == "" {
			continue
		}
		if !json.Valid([]byte(j.v)) {
			return nil, usageErrorf("%s: not valid JSON; expected an object such as {\"players\":4}", j.flag)
		}
		*j.dst = json.RawMessage(j.v)
	}
	return &b, nil
}

func runLedgerAppend(a *app, o *ledgerAppendOptions) error {
	var body *ledger.Body
	var raw []byte
	var err error
	if o.BodyFile != "" {
		if raw, err = readInput(a, o.BodyFile, ledger.MaxBodySize); err != nil {
			return err
		}
	} else if body, err = buildBody(a, o); err != nil {
		return err
	}
	l, err := openLedgerRW(o.DB, o.Key)
	if err != nil {
		return err
	}
	defer l.Close()
	var replay []byte
	if o.Replay != "" {
		if body.Kind != ledger.KindResult || body.ReplaySHA256 != "" {
			return usageErrorf("--replay goes with --kind result and without --replay-sha256")
		}
		if replay, err = readInput(a, o.Replay, ledger.MaxReplaySize); err != nil {
			return err
		}
	}
	admitted := body
	if admitted == nil {
		if admitted, err = ledger.ParseBody(raw); err != nil {
			return usageErrorf("%v", err)
		}
	}
	warnings, err := a.admit(l, admitted, replay)
	if err != nil {
		return err
	}
	if replay != nil {
		if body.ReplaySHA256, err = l.PutReplay(replay); err != nil {
			return usageErrorf("%v", err)
		}
	}
	ctx := context.Background()
	var idx int64
	if body != nil {
		idx, err = l.AppendBody(ctx, body)
	} else {
		idx, err = l.Append(ctx, raw)
	}
	if err != nil {
		// A seed-commit another writer's seed-commit of the same seed beat
		// to the log: refused as the admission refuses it, in its words.
		if e := admissionError(admitted, verify.SeedReused(l, admitted, err)); e != nil {
			return e
		}
		var de *ledger.DuplicateError
		if errors.As(err, &de) {
			return usageErrorf("%v", err).withHint("see it with 'sealed ledger get %d'", de.Index)
		}
		var ce *ledger.ConfusableNameError
		if errors.Is(err, ledger.ErrTampered) || errors.Is(err, ledger.ErrStoreFull) || errors.As(err, &ce) {
			return appendError(err)
		}
		return usageErrorf("%v", err)
	}
	// Only an entry that was appended has warnings (one refused as a
	// duplicate was not recorded).
	for _, w := range warnings {
		fmt.Fprintf(a.errOut, "warning: %s\n", w)
	}
	awaitCheckpoint(l, idx)
	e, err := l.Entry(idx)
	if err != nil {
		return err
	}
	if err := l.Close(); unsignedWarning(err) != "" { // signs the checkpoint covering it
		fmt.Fprintf(a.errOut, "warning: %s\n", unsignedWarning(err))
	} else if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(newEntryJSON(e))
	}
	fmt.Fprintf(a.errOut, "appended %s entry %d; prove it with: sealed ledger prove %d\n", e.Kind, idx, idx)
	_, err = fmt.Fprintln(a.out, idx)
	return err
}

// checkpointWait bounds awaitCheckpoint's wait.
const checkpointWait = 2 * time.Second

// awaitCheckpoint waits, at most checkpointWait, for the checkpoint the
// sequencer signs right after the batch holding entry idx, before a
// one-shot verb reads the ledger again: the reads then follow the
// checkpoint's write on the same database connection, where reading
// meanwhile made a one-shot append on PostgreSQL open a second
// connection (about 10 ms of a 100 ms process). A checkpoint that is not
// stored in time is reported by Close, as before.
func awaitCheckpoint(l *ledger.Ledger, idx int64) {
	ctx, cancel := context.WithTimeout(context.Background(), checkpointWait)
	defer cancel()
	l.WaitCheckpoint(ctx, idx+1)
}
