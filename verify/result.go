package verify

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gowebpki/jcs"
	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/bargain"
)

// ConfigDifference is one key of a match config on which a replay and the
// ledger's seed-commit entry disagree. Values are RFC 8785 canonical JSON
// text; "" means the key is absent on that side.
type ConfigDifference struct {
	Key    string `json:"key"`
	Ledger string `json:"ledger"`
	Replay string `json:"replay"`
}

// ResultCheck is what CheckResult found about a result entry: whether its
// replay is tied to the seed the ledger recorded for the match before it
// (docs/replays.md, "Tied to the ledger"), and the replay's re-simulation.
type ResultCheck struct {
	// Result is the ledger index of the result entry; Game and MatchID are
	// its game and match_id.
	Result  int64  `json:"result"`
	Game    string `json:"game"`
	MatchID string `json:"match_id"`
	// SeedCommit is the index of the seed-commit entry with the same game
	// and match_id that the replay is held to: the earliest one before the
	// result or, when there is none before it, the earliest one after it
	// (then SeedCommitBefore is false). -1 when the ledger has none.
	SeedCommit int64 `json:"seed_commit"`
	// SeedCommitBefore reports whether SeedCommit precedes the result in
	// ledger order.
	SeedCommitBefore bool `json:"seed_commit_before"`
	// LaterSeedCommits lists the other seed-commit entries of the match
	// recorded before the result, after SeedCommit (index order). They do
	// not count: the replay is held to the earliest commitment, so a server
	// cannot commit several seeds and pick one.
	LaterSeedCommits []int64 `json:"later_seed_commits"`
	// LedgerCommitment is the seed-commit entry's commitment (64 lowercase
	// hex), "" when SeedCommit is -1; ReplayCommitment is the one the replay
	// carries or, for an engine replay (which carries none), the commitment
	// of the revealed seed that derives its config.seed ("" when no
	// seed-reveal does).
	LedgerCommitment string `json:"ledger_commitment"`
	ReplayCommitment string `json:"replay_commitment"`
	// CommitmentMatches reports LedgerCommitment == ReplayCommitment.
	CommitmentMatches bool `json:"commitment_matches"`
	// SeedReveal is the index of the first seed-reveal entry naming
	// SeedCommit whose seed is the replay's seed (for an engine replay: whose
	// bargain.EngineSeed is the replay's config.seed), -1 if none;
	// OtherSeedReveals lists the seed-reveals naming SeedCommit with another
	// seed.
	SeedReveal       int64   `json:"seed_reveal"`
	OtherSeedReveals []int64 `json:"other_seed_reveals"`
	// ConfigMatches reports that the replay's config equals the seed-commit
	// entry's config, key by key as canonical JSON (ConfigDifferences lists
	// the keys that differ). Keys the replay format fixes and the seed-commit
	// config need not carry (a negotiation.replay.v1 replay's "itemNames")
	// are compared only when the seed-commit carries them.
	ConfigMatches     bool               `json:"config_matches"`
	ConfigDifferences []ConfigDifference `json:"config_differences"`
	// FormatMatches reports that the replay's format is the result's game
	// (auction: sealed.auction.replay.v1, bargain: negotiation.replay.v1).
	FormatMatches bool `json:"format_matches"`
	// Problems says, one line each, what does not hold of the above; empty
	// when Tied. Differences found by re-simulation are in Replay, not here.
	Problems []string `json:"problems"`
	// Replay is the re-simulation report of the stored replay (CheckReplay).
	Replay *Report `json:"replay"`
	// Contributions lists every contribution entry naming SeedCommit and
	// whether it counts (CountContributions); BeaconNamed is the drand
	// round SeedCommit named, nil when none. A replay that counts a
	// contribution that does not count, leaves out one that does, or
	// ignores the named round is a problem.
	Contributions []ContributionCheck `json:"contributions"`
	BeaconNamed   *BeaconNamed        `json:"beacon_named,omitempty"`
}

// Tied reports whether the replay is tied to the ledger: a seed-commit
// entry of the same game and match precedes the result, no earlier
// seed-commit holds its commitment, the replay carries its commitment, a
// seed-reveal naming it reveals the replay's seed, the configs agree, the
// replay is of the result's game, and its contributions and drand round
// are the ledger's (Problems is empty).
func (c *ResultCheck) Tied() bool {
	return c.SeedCommit >= 0 && c.SeedCommitBefore && c.CommitmentMatches &&
		c.SeedReveal >= 0 && c.ConfigMatches && c.FormatMatches && len(c.Problems) == 0
}

// Clean reports whether the result holds entirely: Tied, and the replay
// re-simulates cleanly (its seed matches its commitment, no differences).
func (c *ResultCheck) Clean() bool { return c.Tied() && c.Replay != nil && c.Replay.Clean() }

// MarshalJSON writes the check with its json tags, the lists as [] when
// empty (never null), and "tied" and "clean" as Tied() and Clean().
func (c ResultCheck) MarshalJSON() ([]byte, error) {
	type plain ResultCheck // without the method, so no recursion
	p := plain(c)
	for _, l := range []*[]int64{&p.LaterSeedCommits, &p.OtherSeedReveals} {
		if *l == nil {
			*l = []int64{}
		}
	}
	if p.ConfigDifferences == nil {
		p.ConfigDifferences = []ConfigDifference{}
	}
	if p.Problems == nil {
		p.Problems = []string{}
	}
	if p.Contributions == nil {
		p.Contributions = []ContributionCheck{}
	}
	return json.Marshal(struct {
		plain
		Tied  bool `json:"tied"`
		Clean bool `json:"clean"`
	}{p, c.Tied(), c.Clean()})
}

// gameFormats is the replay format of each game a result entry may name.
var gameFormats = map[string]string{"auction": FormatAuction, "bargain": FormatBargain}

// formatFixedKeys are config keys a replay format always writes with a
// fixed value but a seed-commit config need not carry: compared only when
// the seed-commit carries them (docs/replays.md, "Tied to the ledger").
var formatFixedKeys = map[string][]string{FormatBargain: {"itemNames"}}

// CheckResult checks the result entry at resultIndex against the ledger:
// it finds the seed-commit entries with the same game and match_id, holds
// the result's stored replay to the earliest one before the result
// (commitment, ledger order, a seed-reveal of the replay's seed, config)
// and re-simulates the replay (CheckReplay). This is what makes a clean
// replay mean something: the seed was fixed in the ledger before the
// match, so the server could not try seeds until it liked the outcome
// (docs/design.md, "Seed commitment"; docs/replays.md, "Tied to the ledger").
//
// When players contributed client seeds or the seed-commit named a drand
// round (docs/rng.md, "The match seed"), the contribution entries are
// counted (CountContributions, bounded by the result) and the replay's
// match seed must take exactly the counted ones and the named round. An
// engine replay carries neither: it is re-checked against the match seed
// of the revealed seed, the counted contributions and the round whose
// signature a seed-reveal records (beacon_signature), and Replay is that
// re-check.
//
// A seed is committed once: when an earlier seed-commit entry (of any
// game and match) holds the seed-commit's commitment, the seed may have
// been public before this match (the earlier match's seed-reveal), and
// that is a problem naming both entries and the seed-reveal.
//
// The check reads the ledger, so the replay report's note that a drand
// round's publication time was not compared with the commitment's
// (CheckReplay's, without a ledger) is dropped from Replay.
//
// It finds the match's seed-commits, and an earlier seed-commit of the
// commitment, with lookups in the store's seed_commits table (O(log n);
// a database opened read-only from before the table is scanned, O(n)),
// after holding that table to the seed-commit leaves
// (ledger.CheckSeedCommits: the first call in a process reads the log,
// under a second at 1,000,000 entries, and later ones the entries
// appended since), and reads the entries naming the seed-commit
// (EntriesByRef). A table that does not check out is an error wrapping
// ledger.ErrTampered.
//
// Errors: resultIndex is not in the ledger (wrapping ledger.ErrNotFound),
// the entry is not a result entry, its replay is not stored (wrapping
// ledger.ErrTampered: admission stores a result's replay before the
// result, and the audit reports its absence), the replay cannot be read (CheckReplay's errors),
// and storage errors. What does not hold is in the check, not an error.
func CheckResult(l *ledger.Ledger, resultIndex int64) (*ResultCheck, error) {
	e, err := l.Entry(resultIndex)
	if err != nil {
		return nil, err
	}
	if e.Kind != ledger.KindResult {
		return nil, fmt.Errorf("entry %d is %s entry; expected a result entry", resultIndex, e.Kind.Article())
	}
	res, err := e.Body()
	if err != nil {
		return nil, err
	}
	data, err := l.Replay(res.ReplaySHA256)
	if err != nil {
		if errors.Is(err, ledger.ErrNotFound) {
			return nil, MissingReplay(resultIndex, res.ReplaySHA256)
		}
		return nil, err
	}
	rep, err := CheckReplay(data)
	if err != nil {
		return nil, fmt.Errorf("result entry %d: %w", resultIndex, err)
	}
	// The verdict rests on what the seed_commits table does not hold too
	// (no earlier seed-commit of the match, or of its commitment): the
	// table is held to the leaves first.
	if err := l.CheckSeedCommits(context.Background()); err != nil {
		return nil, err
	}
	t, err := tieResult(l, resultIndex, res, data, rep, false)
	if err != nil {
		return nil, err
	}
	return t.check, nil
}

// resultTie is what tieResult found: the check, and the body of the
// seed-commit entry it holds the replay to (nil when there is none).
type resultTie struct {
	check *ResultCheck
	sc    *ledger.Body
}

// tieResult is CheckResult of the result res at resultIndex, whose replay
// is data and re-simulates as rep. admitting is Admit's check of a result
// not appended yet, resultIndex the index it would take: it reports only
// what no later entry can change, so it finds the match's first
// seed-commit and stops reading there, does not look for seed-reveals
// (they may come after the result), does not compare configs (Admit does,
// and refuses a difference), and of an engine replay, whose tie rests on
// the seed-reveals, checks only the seed-commit.
func tieResult(l *ledger.Ledger, resultIndex int64, res *ledger.Body, data []byte, rep *Report, admitting bool) (*resultTie, error) {
	var head struct {
		Format         string                      `json:"format"`
		Protocol       string                      `json:"protocol"`
		Config         json.RawMessage             `json:"config"`
		SeedCommitment string                      `json:"seed_commitment"`
		Seed           string                      `json:"seed"`
		Contributions  []commit.ReplayContribution `json:"contributions"`
		Beacon         *commit.ReplayBeacon        `json:"beacon"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("result entry %d: reading the replay: %w", resultIndex, err)
	}
	var engineSeed *int64 // an engine replay's config.seed
	if rep.Dialect == DialectEngine {
		var cfg struct {
			Seed int64 `json:"seed"`
		}
		_ = json.Unmarshal(head.Config, &cfg) // CheckReplay read it
		engineSeed = &cfg.Seed
		head.Format = head.Protocol
	}
	c := &ResultCheck{Result: resultIndex, Game: res.Game, MatchID: res.MatchID, SeedCommit: -1, SeedReveal: -1,
		ReplayCommitment: strings.ToLower(head.SeedCommitment), Replay: rep, FormatMatches: gameFormats[res.Game] == head.Format}
	problem := func(format string, args ...any) { c.Problems = append(c.Problems, fmt.Sprintf(format, args...)) }
	if !c.FormatMatches {
		problem("the result is for game %s but its replay is %s replay; expected %s", res.Game, ledger.WithArticle(head.Format), gameFormats[res.Game])
	}
	// The ledger was read: the replay's own note that a beacon round's
	// publication time needs it no longer applies (tieMatchInputs
	// compares the time, or the round was not the ledger's to take).
	defer func() {
		c.Replay.Notes = slices.DeleteFunc(slices.Clone(c.Replay.Notes), func(n string) bool { return n == noteBeaconTime })
	}()

	most := -1 // every seed-commit of the match before the result
	if admitting {
		most = 1
	}
	before, err := seedCommits(l, res.Game, res.MatchID, 0, resultIndex, most)
	if err != nil {
		return nil, err
	}
	var sc *ledger.Body
	if len(before) > 0 {
		c.SeedCommit, c.SeedCommitBefore = before[0].index, true
		sc = before[0].body
		for _, b := range before[1:] {
			c.LaterSeedCommits = append(c.LaterSeedCommits, b.index)
		}
	} else {
		size, err := l.Size()
		if err != nil {
			return nil, err
		}
		var after []indexedBody
		if !admitting {
			if after, err = seedCommits(l, res.Game, res.MatchID, resultIndex+1, size, 1); err != nil {
				return nil, err
			}
		}
		if len(after) == 0 {
			problem("no seed commitment was recorded for this match before the result")
			return &resultTie{check: c}, nil
		}
		c.SeedCommit, sc = after[0].index, after[0].body
		problem("no seed commitment was recorded for this match before the result: the first, entry %d, came after it (the result is entry %d)", c.SeedCommit, resultIndex)
	}
	t := &resultTie{check: c, sc: sc}

	// A seed is committed once (seedreuse.go): an earlier seed-commit
	// holding the commitment may have made the seed public before this
	// match. A ledger written before Admit refused such entries may hold
	// them.
	earlier, err := seedCommitHolding(l, sc.Commitment, c.SeedCommit)
	if err != nil {
		return nil, err
	}
	if earlier != nil {
		problem("%s", earlier.reuseProblem(c.SeedCommit))
	}

	c.LedgerCommitment = sc.Commitment
	refs, err := l.EntriesReferencing(c.SeedCommit)
	if err != nil {
		return nil, err
	}
	scEntry, err := l.Entry(c.SeedCommit)
	if err != nil {
		return nil, err
	}
	c.Contributions, err = CountContributions(*scEntry, sc, matchSeats(sc.Game, sc.Config), refs, resultIndex)
	if err != nil {
		return nil, fmt.Errorf("result entry %d: %w", resultIndex, err)
	}
	ledgerSig, ledgerSigEntry, err := beaconSignature(refs, sc)
	if err != nil {
		return nil, fmt.Errorf("result entry %d: %w", resultIndex, err)
	}
	sigEntry := int64(-1) // the seed-reveal the beacon's signature came from
	switch {
	case admitting && engineSeed != nil:
		// Everything an engine replay is held to rests on the seed-reveals.
		return t, nil
	case admitting:
		c.sealedCommitment(problem)
	case engineSeed != nil:
		// An engine replay carries no contributions or beacon: the counted
		// contribution entries are its contributions, and the round the
		// seed-commit named is the one a seed-reveal records.
		head.Contributions = nil
		for _, cc := range c.Contributions {
			if cc.Counts {
				head.Contributions = append(head.Contributions, commit.ReplayContribution{Seat: int(cc.Seat), ClientSeed: cc.ClientSeed, Entry: &cc.Entry})
			}
		}
		if ledgerSig != "" {
			head.Beacon = &commit.ReplayBeacon{Chain: sc.BeaconChain, Round: uint64(*sc.BeaconRound), Signature: ledgerSig}
			sigEntry = ledgerSigEntry
		}
		if err := c.engineTie(refs, *engineSeed, data, head.Contributions, head.Beacon, problem); err != nil {
			return nil, fmt.Errorf("result entry %d: %w", resultIndex, err)
		}
	default:
		if err := c.sealedTie(refs, head.Seed, problem); err != nil {
			return nil, fmt.Errorf("result entry %d: %w", resultIndex, err)
		}
	}
	c.tieMatchInputs(*scEntry, sc, head.Contributions, head.Beacon, sigEntry, ledgerSig, ledgerSigEntry, problem)
	if admitting {
		return t, nil
	}

	c.ConfigDifferences, err = compareConfigs(sc.Config, head.Config, formatFixedKeys[head.Format])
	if engineSeed != nil {
		c.ConfigDifferences, err = compareConfigs(sc.Config, head.Config, engineFixedKeys)
	}
	if err != nil {
		return nil, fmt.Errorf("result entry %d: comparing configs: %w", resultIndex, err)
	}
	c.ConfigMatches = len(c.ConfigDifferences) == 0
	if !c.ConfigMatches {
		keys := make([]string, len(c.ConfigDifferences))
		for i, d := range c.ConfigDifferences {
			keys[i] = d.Key
		}
		problem("the replay's config differs from the one recorded at entry %d in %s", c.SeedCommit, strings.Join(keys, ", "))
	}
	return t, nil
}

// engineFixedKeys are the config keys of an engine replay that a
// seed-commit config need not carry: config.seed is derived from the
// revealed seed, the rest is fixed by the format or derived from the seed.
var engineFixedKeys = []string{"itemNames", "sampled", "schedule", "seed"}

// sealedTie holds a sealed replay's own seed_commitment and seed to the
// seed-commit entry and its seed-reveals (refs).
func (c *ResultCheck) sealedTie(refs []ledger.Entry, seed string, problem func(string, ...any)) error {
	c.sealedCommitment(problem)
	replaySeed, err := commit.ParseSeed(seed)
	if err != nil { // CheckReplay has already refused a malformed seed
		return fmt.Errorf("the replay's seed: %w", err)
	}
	for _, r := range refs {
		if r.Kind != ledger.KindSeedReveal {
			continue
		}
		b, err := r.Body()
		if err != nil {
			return err
		}
		if s, err := commit.ParseSeed(b.Seed); err == nil && s == replaySeed && c.SeedReveal < 0 {
			c.SeedReveal = r.Index
		} else if err != nil || s != replaySeed {
			c.OtherSeedReveals = append(c.OtherSeedReveals, r.Index)
		}
	}
	if c.SeedReveal < 0 {
		if len(c.OtherSeedReveals) == 0 {
			problem("no seed-reveal names the seed commitment at entry %d", c.SeedCommit)
		} else {
			problem("the seed revealed at %s for entry %d is not the replay's seed", entryList(c.OtherSeedReveals), c.SeedCommit)
		}
	}
	return nil
}

// sealedCommitment holds a sealed replay's own seed_commitment to the
// seed-commit entry's.
func (c *ResultCheck) sealedCommitment(problem func(string, ...any)) {
	c.CommitmentMatches = c.LedgerCommitment == c.ReplayCommitment
	if !c.CommitmentMatches {
		problem("the replay's seed commitment differs from the one recorded at entry %d", c.SeedCommit)
	}
}

// engineTie holds an engine replay, which carries only its integer
// config.seed, to the seed-commit entry: the replay's seed is the one a
// seed-reveal naming the entry reveals when bargain.EngineSeed of it is
// config.seed, and its commitment must be the entry's. The replay is then
// re-checked against that seed and the entry's commitment, so c.Replay no
// longer says the seed was not committed.
func (c *ResultCheck) engineTie(refs []ledger.Entry, engineSeed int64, data []byte, cs []commit.ReplayContribution, b *commit.ReplayBeacon, problem func(string, ...any)) error {
	var rnd *[32]byte
	if b != nil {
		sig, err := hex.DecodeString(b.Signature)
		if err != nil {
			return fmt.Errorf("beacon_signature: %w", err) // the ledger stores hex
		}
		r := beacon.Randomness(sig)
		rnd = &r
	}
	var revealed *commit.Seed
	for _, r := range refs {
		if r.Kind != ledger.KindSeedReveal {
			continue
		}
		b, err := r.Body()
		if err != nil {
			return err
		}
		s, err := commit.ParseSeed(b.Seed)
		ms, _ := commit.MatchSeed(s, toContributions(cs), rnd)
		if n, _ := bargain.EngineSeed(ms[:]); err == nil && n == engineSeed && c.SeedReveal < 0 {
			c.SeedReveal, revealed = r.Index, &s
		} else {
			c.OtherSeedReveals = append(c.OtherSeedReveals, r.Index)
		}
	}
	if revealed == nil {
		if len(c.OtherSeedReveals) == 0 {
			problem("no seed-reveal names the seed commitment at entry %d", c.SeedCommit)
		} else {
			problem("the seed revealed at %s for entry %d does not derive the engine replay's config.seed %d", entryList(c.OtherSeedReveals), c.SeedCommit, engineSeed)
		}
		problem("an engine replay carries no seed commitment of its own: without the revealed seed nothing ties it to entry %d", c.SeedCommit)
		return nil
	}
	c.ReplayCommitment = revealed.Commitment().String()
	c.CommitmentMatches = c.LedgerCommitment == c.ReplayCommitment
	if !c.CommitmentMatches {
		problem("the seed revealed at entry %d derives the replay's config.seed but its commitment differs from the one recorded at entry %d", c.SeedReveal, c.SeedCommit)
		return nil
	}
	committed, err := commit.ParseCommitment(c.LedgerCommitment)
	if err != nil {
		return fmt.Errorf("the seed commitment at entry %d: %w", c.SeedCommit, err)
	}
	rep, err := CheckReplayWith(data, ReplayOptions{Seed: revealed, SeedCommitment: &committed, Contributions: cs, Beacon: b})
	if err != nil {
		return err
	}
	c.Replay = rep
	return nil
}

// entryList renders indexes as "entry 5" or "entries 5, 7".
func entryList(idx []int64) string {
	s := make([]string, len(idx))
	for i, n := range idx {
		s[i] = fmt.Sprint(n)
	}
	if len(s) == 1 {
		return "entry " + s[0]
	}
	return "entries " + strings.Join(s, ", ")
}

type indexedBody struct {
	index int64
	body  *ledger.Body
}

// seedCommits returns the seed-commit entries of game and matchID with
// index in [from, to), in index order; it stops after max of them when
// max > 0. The store's seed_commits rows of the match name the
// candidates (one lookup, O(log n)); each is read, checked against its
// stored leaf hash (ledger.Entries), and decides. A row deleted or
// altered in the database to hide a seed-commit is not seen here: the
// audit names it. A database opened read-only from before that table is
// scanned instead (scanSeedCommitsOfMatch).
func seedCommits(l *ledger.Ledger, game, matchID string, from, to int64, max int) ([]indexedBody, error) {
	idx, err := l.Store().SeedCommitsOfMatch(context.Background(), game, matchID)
	if errors.Is(err, errors.ErrUnsupported) {
		return scanSeedCommitsOfMatch(l, game, matchID, from, to, max)
	}
	if err != nil {
		return nil, err
	}
	var out []indexedBody
	for _, i := range idx {
		if i < from || i >= to {
			continue
		}
		page, err := l.Entries(i, 1)
		if err != nil {
			return nil, err
		}
		if len(page) != 1 || page[0].Index != i || page[0].Kind != ledger.KindSeedCommit {
			continue // a row naming another entry was altered: the audit names it
		}
		b, err := page[0].Body()
		if err != nil {
			return nil, err
		}
		if b.Game == game && b.MatchID == matchID {
			out = append(out, indexedBody{i, b})
			if max > 0 && len(out) >= max {
				break
			}
		}
	}
	return out, nil
}

// scanSeedCommitsOfMatch is seedCommits by a scan of the log, O(n), for a
// store without the seed_commits table.
func scanSeedCommitsOfMatch(l *ledger.Ledger, game, matchID string, from, to int64, max int) ([]indexedBody, error) {
	var out []indexedBody
	for from < to {
		n := int(min(to-from, ledger.MaxEntries))
		page, err := l.Entries(from, n)
		if err != nil {
			return nil, err
		}
		if len(page) == 0 {
			break
		}
		for i := range page {
			if page[i].Kind != ledger.KindSeedCommit || page[i].Index >= to {
				continue
			}
			b, err := page[i].Body()
			if err != nil {
				return nil, err
			}
			if b.Game == game && b.MatchID == matchID {
				out = append(out, indexedBody{page[i].Index, b})
				if max > 0 && len(out) >= max {
					return out, nil
				}
			}
		}
		from = page[len(page)-1].Index + 1
	}
	return out, nil
}

// compareConfigs compares two JSON objects key by key, each value as RFC
// 8785 canonical JSON (so key order, white space and number spelling do
// not matter: 10 and 1e1 are equal, "10" and "10.00" are not). A key in
// fixed that only the replay carries is not compared. The differences are
// in key order.
func compareConfigs(ledgerConfig, replayConfig json.RawMessage, fixed []string) ([]ConfigDifference, error) {
	lm, err := canonicalMembers(ledgerConfig)
	if err != nil {
		return nil, fmt.Errorf("the seed-commit's config: %w", err)
	}
	rm, err := canonicalMembers(replayConfig)
	if err != nil {
		return nil, fmt.Errorf("the replay's config: %w", err)
	}
	keys := make([]string, 0, len(lm)+len(rm))
	for k := range lm {
		keys = append(keys, k)
	}
	for k := range rm {
		if _, ok := lm[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []ConfigDifference
	for _, k := range keys {
		lv, inLedger := lm[k]
		rv, inReplay := rm[k]
		if !inLedger && slices.Contains(fixed, k) {
			continue
		}
		if inLedger && inReplay && bytes.Equal(lv, rv) {
			continue
		}
		out = append(out, ConfigDifference{Key: k, Ledger: string(lv), Replay: string(rv)})
	}
	return out, nil
}

// canonicalMembers reads a JSON object (null or absent reads as {}) into
// its members, each value in RFC 8785 canonical form (github.com/gowebpki/jcs).
func canonicalMembers(obj json.RawMessage) (map[string][]byte, error) {
	var m map[string]json.RawMessage
	if len(obj) > 0 {
		if err := json.Unmarshal(obj, &m); err != nil {
			return nil, fmt.Errorf("expected a JSON object: %w", err)
		}
	}
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		c, err := jcs.Transform(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = c
	}
	return out, nil
}

// toContributions converts replay contributions to MatchSeed's inputs.
func toContributions(cs []commit.ReplayContribution) []commit.Contribution {
	out := make([]commit.Contribution, len(cs))
	for i, c := range cs {
		out[i] = commit.Contribution{Seat: c.Seat, ClientSeed: []byte(c.ClientSeed)}
	}
	return out
}

// MissingReplay is the error for result entry resultIndex whose replay,
// digest (its SHA-256 in hex), the store does not hold. It wraps
// ledger.ErrTampered: admission stores a result's replay before the
// result (admitResult), so a missing one is a replays row deleted, as
// the audit reports it.
func MissingReplay(resultIndex int64, digest string) error {
	return fmt.Errorf("result entry %d names replay %s, which is not stored (a result is admitted only after its replay is stored): %w", resultIndex, digest, ledger.ErrTampered)
}
