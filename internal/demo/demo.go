package demo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
)

// Options configure Build.
type Options struct {
	// Path is the database file to create; the signer key goes to
	// KeyFile(Path). An existing file is replaced only when Force is set,
	// it is a demo ledger (origin Origin) holding no more entries than the
	// demo records, and it is not being served (see Hold); otherwise Build
	// returns ErrExists, ErrNotDemo, ErrPosted or ErrInUse and leaves it
	// alone.
	Path string
	// Force allows replacing a demo ledger at Path (within the limits
	// above).
	Force bool
	// Now is the current instant. The demo records the ISO week (UTC)
	// before the week holding Now, so every date of that week has passed
	// and the week can be concluded.
	Now time.Time
}

// Summary is what Build recorded and what the verification found.
type Summary struct {
	Path        string `json:"path"`
	KeyFile     string `json:"key_file"`
	Origin      string `json:"origin"`
	VerifierKey string `json:"verifier_key"`
	// VerifierKeyFile is where Build wrote VerifierKey and a newline
	// (VerifierKeyFile(Path)), for auditors to pin with --vkey-file.
	VerifierKeyFile string `json:"verifier_key_file"`
	// Week is the week of secret actions recorded, e.g. "2026-W47".
	Week string `json:"week"`
	// Entries counts the entries recorded by kind; Size is their total.
	Entries map[ledger.Kind]int `json:"entries"`
	Size    int64               `json:"size"`
	// Checkpoint is the latest signed checkpoint.
	Checkpoint *ledger.Checkpoint `json:"checkpoint"`
	// Matches are the games played, each re-simulated from its stored
	// replay.
	Matches []MatchCheck `json:"matches"`
	// Actions are the week's secret actions as judged now.
	Actions []ActionCheck `json:"actions"`
	// Lots is the week's conclusion (verify.ConcludeLots).
	Lots *verify.LotsConclusion `json:"lots"`
	// Operators are the seed commitments per operator and the matches
	// abandoned (verify.AbandonedMatches at Now).
	Operators []verify.OperatorMatches `json:"operators"`
	// Audit is the ledger audit (ledger.Audit).
	Audit *ledger.AuditReport `json:"audit"`
	// Problems lists every check that failed; empty when all is well.
	Problems []string `json:"problems"`
}

// OK reports whether every check passed.
func (s *Summary) OK() bool { return len(s.Problems) == 0 }

// MatchCheck is one game of the demo and its verification.
type MatchCheck struct {
	Game    string `json:"game"`
	MatchID string `json:"match_id"`
	// SeedCommit, SeedReveal and Result are the ledger indexes of its
	// entries; Replay is the replay's SHA-256 (the result entry's
	// replay_sha256).
	SeedCommit int64  `json:"seed_commit"`
	SeedReveal int64  `json:"seed_reveal"`
	Result     int64  `json:"result"`
	Replay     string `json:"replay_sha256"`
	Events     int    `json:"events"`
	// SeedOK: the revealed seed hashes to the seed-commit entry's
	// commitment, which the replay carries too, and the commitment was
	// recorded before the reveal. Clean: the re-simulation found no
	// difference (verify.CheckReplay).
	SeedOK      bool   `json:"seed_ok"`
	Clean       bool   `json:"clean"`
	Differences int    `json:"differences"`
	Headline    string `json:"headline"`
	// MatchSeed says which counted contributions and which drand round
	// went into the match seed (verify.CheckResult); empty when none did.
	MatchSeed string `json:"match_seed,omitempty"`
}

// ActionCheck is one secret action of the week: its post, the state the
// judge gave it now, and the state the script intended.
type ActionCheck struct {
	Index      int64         `json:"index"`
	Player     string        `json:"player"`
	ActionType string        `json:"action_type"`
	Commitment string        `json:"commitment"`
	State      secret.State  `json:"state"`
	Reason     secret.Reason `json:"reason,omitempty"`
	Want       secret.State  `json:"want"`
	WantReason secret.Reason `json:"want_reason,omitempty"`
	// RevealNotes say, for an action that failed although reveals of it
	// were posted, why each did not count: the reveal entry's index, and
	// the near misses commit.Verify found (e.g. "reveal entry 18 does not
	// hash to the commitment; it would with the trailing LF removed").
	RevealNotes []string `json:"reveal_notes,omitempty"`
}

// clock is the ledger's injected clock: the demo sets the integration time
// of each entry before appending it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Build creates the demo ledger at o.Path, records the games and the week,
// closes it, then verifies it read-only and returns the Summary. A failed
// check is listed in Summary.Problems, not returned as an error; errors
// are for what stopped the demo (a file it may not replace: ErrExists,
// ErrNotDemo, ErrPosted, ErrInUse; I/O).
func Build(ctx context.Context, o Options) (*Summary, error) {
	if o.Path == "" {
		return nil, errors.New("demo: no database path")
	}
	if err := clear(o.Path, o.Force); err != nil {
		return nil, err
	}
	vkey, err := stores.Init(context.Background(), o.Path, Origin, KeyFile(o.Path))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(VerifierKeyFile(o.Path), []byte(vkey+"\n"), 0o644); err != nil {
		return nil, err
	}
	cal := secret.Calendar{}
	week := cal.WeekOf(o.Now.UTC().AddDate(0, 0, -7))
	monday := cal.WeekStart(week)
	s := &Summary{Path: o.Path, KeyFile: KeyFile(o.Path), Origin: Origin, VerifierKey: vkey, VerifierKeyFile: VerifierKeyFile(o.Path), Week: week.String(),
		Entries: map[ledger.Kind]int{}, Problems: []string{}}

	rec, err := record(ctx, o.Path, monday, s)
	if err != nil {
		return nil, err
	}
	if err := check(ctx, o, week, rec, s); err != nil {
		return nil, err
	}
	return s, nil
}

// recorded is what record wrote, for check.
type recorded struct {
	matches []*match
	posts   map[string]int64 // script key -> ledger index of the commit entry
	commits map[string]commit.Commitment
}

// record appends every entry in time order through the injected clock.
func record(ctx context.Context, path string, monday time.Time, s *Summary) (*recorded, error) {
	clk := &clock{t: monday}
	l, err := stores.Open(context.Background(), path, ledger.Options{KeyFile: KeyFile(path), Clock: clk.now, CheckpointInterval: 10 * time.Millisecond})
	if err != nil {
		return nil, err
	}
	defer l.Close()
	add := func(at time.Duration, b *ledger.Body) (int64, error) {
		clk.set(monday.Add(at))
		n, err := l.AppendBody(ctx, b)
		if err != nil {
			return -1, fmt.Errorf("demo: appending %s entry: %w", b.Kind.Article(), err)
		}
		s.Entries[b.Kind]++
		return n, nil
	}
	rec := &recorded{posts: map[string]int64{}, commits: map[string]commit.Commitment{}}
	id := s.Week
	// First, at its 2023 times: the match with contributions and a
	// beacon round, and an abandoned one.
	addAt := func(t time.Time, b *ledger.Body) (int64, error) { return add(t.Sub(monday), b) }
	cm, cmc, err := recordContributed(id, addAt, l.PutReplay)
	if err != nil {
		return nil, fmt.Errorf("demo: the match with contributions: %w", err)
	}
	am, err := playAuction("demo-auction-" + id)
	if err != nil {
		return nil, fmt.Errorf("demo: playing the auction: %w", err)
	}
	bm, err := playBargain("demo-bargain-" + id)
	if err != nil {
		return nil, fmt.Errorf("demo: playing the negotiation: %w", err)
	}
	rec.matches = []*match{am, bm}

	// The games: seeds committed at 08:00, revealed with the results at 12:00.
	for i, m := range rec.matches {
		n, err := add(seedCommitAt+time.Duration(i)*time.Minute, &ledger.Body{Kind: ledger.KindSeedCommit, Game: m.game, MatchID: m.id,
			RulesVersion: m.rules, Config: m.config, Commitment: m.seed.Commitment().String()})
		if err != nil {
			return nil, err
		}
		s.Matches = append(s.Matches, MatchCheck{Game: m.game, MatchID: m.id, SeedCommit: n, Events: m.events})
	}
	// The week's posts and edits up to the games' reveal, then the rest.
	script := scriptEntries(rec)
	reveal := func() error {
		for i, m := range rec.matches {
			at := seedRevealAt + time.Duration(i)*time.Minute
			mc := &s.Matches[i]
			sc := mc.SeedCommit
			n, err := add(at, &ledger.Body{Kind: ledger.KindSeedReveal, SeedCommit: &sc, Seed: m.seed.String()})
			if err != nil {
				return err
			}
			mc.SeedReveal = n
			d, err := l.PutReplay(m.replay)
			if err != nil {
				return fmt.Errorf("demo: storing the %s replay: %w", m.game, err)
			}
			if mc.Result, err = add(at+time.Second, &ledger.Body{Kind: ledger.KindResult, Game: m.game, MatchID: m.id, ReplaySHA256: d, Summary: m.summary}); err != nil {
				return err
			}
			mc.Replay = d
		}
		return nil
	}
	revealed := false
	for _, e := range script {
		if !revealed && e.at > seedRevealAt {
			if err := reveal(); err != nil {
				return nil, err
			}
			revealed = true
		}
		b, err := e.body(rec)
		if err != nil {
			return nil, err
		}
		n, err := add(e.at, b)
		if err != nil {
			return nil, err
		}
		if e.kind == ledger.KindCommit {
			rec.posts[e.key] = n
		}
	}
	if !revealed {
		if err := reveal(); err != nil {
			return nil, err
		}
	}
	rec.matches = append(rec.matches, cm)
	s.Matches = append(s.Matches, cmc)
	if err := l.Close(); err != nil {
		return nil, fmt.Errorf("demo: closing the ledger: %w", err)
	}
	return rec, nil
}
