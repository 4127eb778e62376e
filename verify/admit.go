package verify

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sealedhq/sealed/beacon"
	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/rules/secret"
)

// AdmissionError is returned by Admit for an entry that can only be a
// mistake: Field names the body field at fault, Msg what was wrong and
// what was expected. The CLI exits 2 on it and the web API answers 400.
type AdmissionError struct {
	Field string
	Msg   string
	// Err, if not nil, is the error the refusal stands on (a
	// *ledger.ConfusableNameError for a player name that looks like
	// another player's; a *ledger.DuplicateError naming the earlier
	// seed-commit for a seed-commit whose commitment it holds, so that
	// the API answers 409 as for a duplicate).
	Err error
}

// Unwrap returns Err.
func (e *AdmissionError) Unwrap() error { return e.Err }

// Error is "FIELD: MSG".
func (e *AdmissionError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

func refuse(field, format string, args ...any) error {
	return &AdmissionError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Admit is the write admission of every writer (the CLI's action verbs
// and ledger append, and the web API): it checks a validated body
// (ledger.ParseBody) against the entries it names in l, before
// ledger.Append, and returns warnings about entries that are recorded but
// will not count. now stands for the integration time of an entry
// without posted_at. replay, if not nil, is the replay a result entry
// will name, not stored yet: the caller stores it (ledger.PutReplay) once
// admitted and sets b.ReplaySHA256 to its digest. It refuses, with an
// *AdmissionError:
//
//   - a reveal or edit naming an entry that is not a commit entry, or a
//     commit posted by another player (a reveal by bob of alice's commit
//     is a typo, not an event), or timed before the commit's post (its
//     posted_at, else its integration time): it cannot have happened
//     before the post it names;
//   - a seed-reveal whose seed does not hash to its seed-commit's
//     commitment (commit.CheckSeed), or whose beacon_signature is given
//     when the seed-commit named no drand round, or is not the round's
//     signature (beacon.Chain.CheckRoundOnce, which remembers it: the
//     checks of the match's replays then do not verify it again);
//   - a contribution naming an entry that is not a seed-commit, or a
//     seed-commit that names neither play_at nor play_at_entry (its
//     match takes no contributions), or with a seat that is not a seat
//     of the match (0..players-1 of an auction's config, 0..2 for
//     Negotiation Games);
//   - a commit whose player is not yet a player of the log but whose
//     name renders like one's: the same Unicode confusable skeleton
//     (UTS #39, ledger.Skeleton), such as "аlice" with a Cyrillic а
//     when "alice" has posted (the AdmissionError's Err is the
//     *ledger.ConfusableNameError); names with invisible characters are
//     refused by ledger.ParseBody already;
//   - a seed-commit whose rules_version or config no replay of its game
//     could carry (CheckMatchConfig: the field and what is expected), so
//     that the mistake shows before the match rather than at its result;
//   - a seed-commit naming a drand network sealed does not know, a
//     round below 1, or a round already published at now (its randomness is public: the
//     server could choose its seed against it), or a play_at_entry that
//     is not after the index the seed-commit would take (the ledger's
//     size; ledger.Append refuses it too);
//   - a seed-commit whose commitment an earlier seed-commit holds, of any
//     game and match: a seed is committed once, since the earlier
//     match's seed-reveal makes it public (the message names the earlier
//     entry and its seed-reveal; Err is a *ledger.DuplicateError with the
//     earlier index);
//   - a result whose replay_sha256 names no stored replay, whose replay
//     CheckReplay cannot read or is of another game, or whose config
//     differs from the config of its match's seed-commit (the earliest
//     seed-commit entry of the same game and match_id, if any).
//
// It records, with a warning, what happened even though it does not
// count: a reveal whose text does not hash to the commitment (rule S3),
// with the near misses; a replay that does not re-simulate cleanly; a
// result that CheckResult will not tie to the ledger whatever comes
// after it (no seed-commit of its match before it, a seed-commit whose
// commitment an earlier one holds, a sealed replay whose seed commitment,
// contributions or drand round are not the ledger's: CheckResult's
// problems, in its words; what a seed-reveal still to come may settle is
// not warned about); a contribution that will not count (posted before
// its seed-commit was integrated, arriving at or after play_at or
// play_at_entry, or of a seat that already contributed); a seed-commit
// whose reveal_by is already past (its match will be reported abandoned).
// Other errors are storage errors. Admit reads the entries named; for a
// seed-commit, the seed-commits holding its commitment (one lookup in the
// store's seed_commits table, O(log n); ledger.Append refuses such a
// seed-commit too, under the write lock, so two admitted at once cannot
// both land); for a result, the seed-commits of its match and those
// holding the first one's commitment (lookups in the same table).
func Admit(l *ledger.Ledger, b *ledger.Body, replay []byte, now time.Time) (warnings []string, err error) {
	switch b.Kind {
	case ledger.KindReveal, ledger.KindEdit:
		return admitRevealOrEdit(l, b, now)
	case ledger.KindSeedReveal:
		return nil, admitSeedReveal(l, b)
	case ledger.KindResult:
		return admitResult(l, b, replay)
	case ledger.KindContribution:
		return admitContribution(l, b, now)
	case ledger.KindSeedCommit:
		return admitSeedCommit(l, b, now)
	case ledger.KindCommit:
		return nil, admitCommit(l, b)
	}
	return nil, nil
}

// admitCommit refuses a commit whose action type is a known one
// (secret.ActionBid, secret.ActionHand) in another letter case: the judge
// compares types exactly, so a "Bid" would be judged as another type,
// neither a bid nor a Hand. It refuses a commit whose player is not a
// player of the log yet but whose name renders like one's (the same
// Unicode confusable skeleton, ledger.Skeleton): one lookup in the
// store's players table.
func admitCommit(l *ledger.Ledger, b *ledger.Body) error {
	for _, k := range []string{secret.ActionBid, secret.ActionHand} {
		if b.ActionType != k && strings.EqualFold(b.ActionType, k) {
			return refuse("action_type", "%q is the known type %q in other letters: types are compared exactly, so it would be judged as another type, neither a bid nor a Hand; expected %q", b.ActionType, k, k)
		}
	}
	if b.Player == "" {
		return nil // ParseBody requires it; Append says so
	}
	err := l.CheckNewPlayer(b.Player)
	var ce *ledger.ConfusableNameError
	if errors.As(err, &ce) {
		// The field names the player: the message goes on from the name
		// ("player: \"аlice\" (...) looks like ...", not "player: player").
		return &AdmissionError{Field: "player", Msg: strings.TrimPrefix(ce.Error(), "player "), Err: ce}
	}
	return err
}

// referenced returns the entry idx names and its body; a missing entry or
// one of another kind is refused.
func referenced(l *ledger.Ledger, field string, idx int64, want ledger.Kind) (*ledger.Entry, *ledger.Body, error) {
	e, err := l.Entry(idx)
	if errors.Is(err, ledger.ErrNotFound) {
		return nil, nil, refuse(field, "entry %d does not exist; expected the index of %s entry", idx, want.Article())
	}
	if err != nil {
		return nil, nil, err
	}
	if e.Kind != want {
		return nil, nil, refuse(field, "entry %d is %s entry; expected %s entry", idx, e.Kind.Article(), want.Article())
	}
	body, err := e.Body()
	if err != nil {
		return nil, nil, err
	}
	return e, body, nil
}

func admitRevealOrEdit(l *ledger.Ledger, b *ledger.Body, now time.Time) ([]string, error) {
	if b.Commit == nil {
		return nil, nil // ParseBody requires it; Append says so
	}
	pe, post, err := referenced(l, "commit", *b.Commit, ledger.KindCommit)
	if err != nil {
		return nil, err
	}
	if post.Player != b.Player {
		if ledger.Skeleton(post.Player) == ledger.Skeleton(b.Player) {
			// The two names render alike ("Zo\u00eb" and its NFD form
			// "Zoe\u0308"): spelled as they are, the refusal would read
			// "posted by Zoë, not Zoë".
			return nil, refuse("player", "commit entry %d was posted by %q, written %s, not %q, written %s: the two names look alike (the same Unicode confusable skeleton, UTS #39) but are different characters; %s names the player who posted the commitment exactly as the commit entry does",
				pe.Index, post.Player, strconv.QuoteToASCII(post.Player), b.Player, strconv.QuoteToASCII(b.Player), b.Kind.Article())
		}
		return nil, refuse("player", "commit entry %d was posted by %s, not %s; %s names the player who posted the commitment", pe.Index, post.Player, b.Player, b.Kind.Article())
	}
	t := now
	if b.PostedAt != "" {
		// A body not yet normalised may carry any RFC 3339 time; one that
		// does not parse is left to Append, which says what is wrong.
		if t, err = ledger.ParseTime(b.PostedAt); err != nil {
			return nil, nil
		}
	}
	pt, src := secret.Stamp{IntegratedAt: pe.IntegratedAt, PostedAt: pe.PostedAt}.Time()
	if t.Before(pt) {
		when := "now (" + t.UTC().Format(time.RFC3339Nano) + ")"
		if b.PostedAt != "" {
			when = t.UTC().Format(time.RFC3339Nano) // the field's name comes first: "posted_at: <time> is before ..."
		}
		article := "a"
		if b.Kind == ledger.KindEdit {
			article = "an"
		}
		return nil, refuse("posted_at", "%s is before commit entry %d was posted (%s, its %s): %s %s cannot happen before the post it names",
			when, pe.Index, pt.UTC().Format(time.RFC3339Nano), src, article, b.Kind)
	}
	if b.Kind != ledger.KindReveal {
		return nil, nil
	}
	text, err := b.RevealedBytes()
	if err != nil {
		return nil, refuse("text_base64", "not valid base64: %v", err)
	}
	c, err := commit.ParseCommitment(post.Commitment)
	if err != nil {
		return nil, fmt.Errorf("commit entry %d: %w", pe.Index, err)
	}
	r := commit.Verify(c, text)
	if r.Match {
		return nil, nil
	}
	w := fmt.Sprintf("mismatch: the revealed bytes hash to %s, not to the commitment %s; the reveal does not count (%s)", r.Got, c,
		secret.Explanation{Rule: secret.RuleReveal, Reading: secret.ReadingRevealMustMatch}.Plain())
	var names []string
	for _, h := range r.Hints {
		names = append(names, h.Name)
	}
	if len(names) > 0 {
		w += "; it would have matched with: " + strings.Join(names, ", ")
	}
	return []string{w}, nil
}

func admitSeedReveal(l *ledger.Ledger, b *ledger.Body) error {
	if b.SeedCommit == nil {
		return nil
	}
	_, sc, err := referenced(l, "seed_commit", *b.SeedCommit, ledger.KindSeedCommit)
	if err != nil {
		return err
	}
	seed, err := commit.ParseSeed(b.Seed)
	if err != nil {
		return refuse("seed", "%v", err)
	}
	c, err := commit.ParseCommitment(sc.Commitment)
	if err != nil {
		return fmt.Errorf("seed-commit entry %d: %w", *b.SeedCommit, err)
	}
	if !commit.CheckSeed(seed, c) {
		return refuse("seed", "the seed hashes to %s, not to the commitment %s of seed-commit entry %d; expected the seed that was committed (the SHA-256 of its 64 hex characters)",
			seed.Commitment(), c, *b.SeedCommit)
	}
	if b.BeaconSignature == "" {
		return nil
	}
	if sc.BeaconChain == "" || sc.BeaconRound == nil {
		return refuse("beacon_signature", "seed-commit entry %d named no drand round; expected no beacon_signature", *b.SeedCommit)
	}
	chain, err := beacon.LookupChain(sc.BeaconChain)
	if err != nil {
		return refuse("beacon_signature", "seed-commit entry %d: %v", *b.SeedCommit, err)
	}
	sig, err := hex.DecodeString(b.BeaconSignature)
	if err != nil {
		return refuse("beacon_signature", "expected hex: %v", err)
	}
	if err := chain.CheckRoundOnce(uint64(*sc.BeaconRound), sig); err != nil {
		return refuse("beacon_signature", "%v; expected the signature of drand round %d of %s, which seed-commit entry %d named ('sealed beacon get --round %d')",
			err, *sc.BeaconRound, chain.Name, *b.SeedCommit, *sc.BeaconRound)
	}
	return nil
}

func admitResult(l *ledger.Ledger, b *ledger.Body, data []byte) ([]string, error) {
	what, field := "the replay", "replay"
	if data == nil {
		field = "replay_sha256"
		var err error
		data, err = l.Replay(b.ReplaySHA256)
		if errors.Is(err, ledger.ErrNotFound) {
			return nil, refuse("replay_sha256", "%s names no replay stored in the ledger; expected the SHA-256 of a replay already stored", b.ReplaySHA256)
		}
		if err != nil {
			return nil, err
		}
		what = "the stored replay " + b.ReplaySHA256
	}
	rep, err := CheckReplay(data)
	if err != nil {
		return nil, refuse(field, "%s: %v; expected a whole replay of the match", what, err)
	}
	if want := gameFormats[b.Game]; want != "" && rep.Format != want {
		return nil, refuse("game", "the replay is %s replay, but the entry's game is %s; expected %s replay", ledger.WithArticle(rep.Format), b.Game, ledger.WithArticle(want))
	}
	size, err := l.Size()
	if err != nil {
		return nil, err
	}
	// The result as CheckResult will see it at the index it takes, less
	// what later entries may still settle (the seed-reveals).
	t, err := tieResult(l, size, b, data, rep, true)
	if err != nil {
		return nil, err
	}
	if t.sc != nil {
		cfg, err := replayConfig(data)
		if err != nil {
			return nil, refuse(field, "%s: %v", what, err)
		}
		fixed := formatFixedKeys[rep.Format]
		if rep.Dialect == DialectEngine {
			fixed = engineFixedKeys // derived from the seed, not committed (CheckResult compares the same way)
		}
		diffs, err := compareConfigs(t.sc.Config, cfg, fixed)
		if err != nil {
			return nil, refuse(field, "comparing the replay's config with seed-commit entry %d: %v", t.check.SeedCommit, err)
		}
		if len(diffs) > 0 {
			keys := make([]string, len(diffs))
			for i, d := range diffs {
				keys[i] = fmt.Sprintf("%s (seed-commit %s, replay %s)", d.Key, orAbsent(d.Ledger), orAbsent(d.Replay))
			}
			return nil, refuse(field, "the replay's config differs from the one seed-commit entry %d recorded for match %s: %s; expected the config committed before the match",
				t.check.SeedCommit, b.MatchID, strings.Join(keys, ", "))
		}
	}
	var warnings []string
	for _, p := range t.check.Problems {
		warnings = append(warnings, "the result is recorded, but it will not be tied to the ledger: "+p)
	}
	if !rep.Clean() {
		seed := "seed commitment ok"
		if !rep.SeedCommitmentOK {
			seed = "seed commitment MISMATCH"
		}
		warnings = append(warnings, fmt.Sprintf("the replay does not re-simulate cleanly (%d differences, %s); it is recorded as evidence: 'sealed replay check' lists the differences", len(rep.Differences), seed))
	}
	return warnings, nil
}

// replayConfig is the config object of a replay document.
func replayConfig(data []byte) (json.RawMessage, error) {
	var head struct {
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("reading the replay's config: %w", err)
	}
	return head.Config, nil
}

func admitContribution(l *ledger.Ledger, b *ledger.Body, now time.Time) ([]string, error) {
	if b.SeedCommit == nil || b.Seat == nil {
		return nil, nil // ParseBody requires them; Append says so
	}
	sce, sc, err := referenced(l, "seed_commit", *b.SeedCommit, ledger.KindSeedCommit)
	if err != nil {
		return nil, err
	}
	if sc.PlayAt == "" && sc.PlayAtEntry == nil {
		return nil, refuse("seed_commit", "seed-commit entry %d names neither play_at nor play_at_entry, so its match takes no contributions; expected a seed-commit that names when play begins", sce.Index)
	}
	seats := matchSeats(sc.Game, sc.Config)
	if *b.Seat >= int64(seats) {
		return nil, refuse("seat", "seat %d is not a seat of match %s (seats 0 to %d)", *b.Seat, sc.MatchID, seats-1)
	}
	// Count it as it would be counted if integrated now.
	refs, err := l.EntriesReferencing(sce.Index)
	if err != nil {
		return nil, err
	}
	me := ledger.Entry{Index: sce.Index + 1, Kind: ledger.KindContribution, IntegratedAt: now}
	if size, err := l.Size(); err == nil {
		me.Index = size
	}
	if b.PostedAt != "" {
		if t, err := ledger.ParseTime(b.PostedAt); err == nil {
			me.PostedAt = t
		}
	}
	leaf, err := json.Marshal(b)
	if err != nil {
		return nil, err
	}
	me.Leaf = leaf
	counted, err := CountContributions(*sce, sc, seats, append(refs, me), -1)
	if err != nil {
		return nil, err
	}
	if last := counted[len(counted)-1]; !last.Counts {
		return []string{"the contribution is recorded but will not count: " + last.Why}, nil
	}
	return nil, nil
}

// admitSeedCommit refuses a seed-commit whose config the rules refuse,
// whose play_at_entry is not after it, whose drand round is not a round
// (< 1) or is already published, or whose commitment an earlier
// seed-commit holds. A reveal_by already past is a warning (the match
// will be reported abandoned), and so is a drand round published more
// than farBeaconRound after now.
func admitSeedCommit(l *ledger.Ledger, b *ledger.Body, now time.Time) ([]string, error) {
	var warnings []string
	if err := CheckMatchConfig(b.Game, b.RulesVersion, b.Config); err != nil {
		return nil, err
	}
	size, err := l.Size()
	if err != nil {
		return nil, err
	}
	if b.PlayAtEntry != nil && *b.PlayAtEntry <= size {
		return nil, refuse("play_at_entry", "entry %d would open play, but the seed-commit will be entry %d or later; expected an index after it (the entry that opens play comes after the commitment)", *b.PlayAtEntry, size)
	}
	if b.BeaconRound != nil && *b.BeaconRound < 1 {
		return nil, refuse("beacon_round", "round %d is not a drand round; expected a round number >= 1", *b.BeaconRound)
	}
	if b.BeaconChain != "" && b.BeaconRound != nil {
		chain, err := beacon.LookupChain(b.BeaconChain)
		if err != nil {
			return nil, refuse("beacon_chain", "%v", err)
		}
		pub := chain.RoundTime(uint64(*b.BeaconRound))
		if pub.IsZero() { // its time overflows: not "published at 0001-01-01" (newcomer trial 7b, finding 2)
			return nil, refuse("beacon_round", "drand round %d of %s would never be published (its time is beyond any date); expected a round soon after now (the next is %d)",
				*b.BeaconRound, chain.Name, chain.RoundAt(now)+1)
		}
		if !pub.After(now) {
			return nil, refuse("beacon_round", "drand round %d of %s was published at %s, before now (%s): its randomness is already public; expected a round after now (the next is %d)",
				*b.BeaconRound, chain.Name, pub.Format(time.RFC3339), now.UTC().Format(time.RFC3339), chain.RoundAt(now)+1)
		}
		if pub.After(now.Add(farBeaconRound)) {
			warnings = append(warnings, fmt.Sprintf("drand round %d of %s is published at %s, %d days from now: the match seed cannot be computed, nor the match played, before then (the next round is %d)",
				*b.BeaconRound, chain.Name, pub.Format(time.RFC3339), (pub.Unix()-now.Unix())/86400, chain.RoundAt(now)+1)) // in seconds: pub.Sub(now) saturates at 292 years (106751 days)
		}
	}
	if b.RevealBy != "" {
		if by, err := ledger.ParseTime(b.RevealBy); err == nil && !by.After(now) {
			warnings = append(warnings, fmt.Sprintf("reveal_by %s is before now (%s): the match will be reported abandoned, and a seed-reveal will be late",
				by.UTC().Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339)))
		}
	}
	c, err := ledger.NormaliseDigest(b.Commitment)
	if err != nil {
		return nil, nil // Append says what is wrong
	}
	// One lookup in the store's seed_commits table (seedreuse.go).
	earlier, err := seedCommitHolding(l, c, size)
	if err != nil || earlier == nil {
		return warnings, err
	}
	return nil, earlier.reused()
}

// farBeaconRound is how far ahead a seed-commit's drand round may be
// published before admission warns that the match cannot be played until
// then: further is more likely a typo than a tournament planned so long
// ahead.
const farBeaconRound = 30 * 24 * time.Hour

// reused is the refusal of a seed-commit whose commitment e holds: an
// *AdmissionError naming e and whether its seed-reveal made the seed
// public, whose Err is the *ledger.DuplicateError naming e.
func (e *earlierSeedCommit) reused() *AdmissionError {
	public := " (its seed-reveal will make it public, and the two matches would share every draw)"
	if e.reveal >= 0 {
		public = fmt.Sprintf(", and seed-reveal entry %d made it public: every private value of this match would be known before play", e.reveal)
	}
	return &AdmissionError{Field: "commitment", Err: &ledger.DuplicateError{Index: e.index, Kind: ledger.KindSeedCommit},
		Msg: fmt.Sprintf("%s already committed to this seed%s; a seed is committed once: expected the commitment of a new seed", e.label(), public)}
}

// SeedReused turns err, the error of appending b after Admit passed it,
// into the refusal Admit gives a seed-commit whose commitment an earlier
// seed-commit holds, when err is such a refusal by ledger.Append (a
// *ledger.DuplicateError of kind seed-commit: another writer appended a
// seed-commit of the same seed meanwhile). So the writer that loses the
// race is told what Admit tells one that comes later: the *AdmissionError
// naming the earlier entry and whether its seed-reveal made the seed
// public. Otherwise, or when the earlier entry cannot be found through
// the store's seed_commits table, it returns err as it is.
func SeedReused(l *ledger.Ledger, b *ledger.Body, err error) error {
	var de *ledger.DuplicateError
	if b == nil || b.Kind != ledger.KindSeedCommit || !errors.As(err, &de) || de.Kind != ledger.KindSeedCommit {
		return err
	}
	c, nerr := ledger.NormaliseDigest(b.Commitment)
	if nerr != nil {
		return err
	}
	size, serr := l.Size()
	if serr != nil {
		return err
	}
	earlier, herr := seedCommitHolding(l, c, size)
	if herr != nil || earlier == nil || earlier.index != de.Index {
		return err
	}
	return earlier.reused()
}

// orAbsent is a config value as a message shows it: "absent" for a key
// the config does not have.
func orAbsent(v string) string {
	if v == "" {
		return "absent"
	}
	return v
}
