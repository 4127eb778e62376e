package demo

import (
	"context"
	"fmt"
	"strings"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
	"github.com/sealedhq/sealed/ledger/stores"
	"github.com/sealedhq/sealed/rules/secret"
	"github.com/sealedhq/sealed/verify"
)

// check opens the demo ledger read-only and verifies what record wrote:
// each replay re-simulated from the stored bytes, each seed against its
// commitment, the week's actions judged at o.Now against the script's
// intent, the lots concluded, and the whole ledger audited. Failures go to
// s.Problems.
func check(ctx context.Context, o Options, week secret.Week, rec *recorded, s *Summary) error {
	l, err := stores.Open(context.Background(), o.Path, ledger.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer l.Close()
	problem := func(format string, args ...any) { s.Problems = append(s.Problems, fmt.Sprintf(format, args...)) }

	for i := range s.Matches {
		mc := &s.Matches[i]
		mc.Headline = rec.matches[i].headline()
		if err := checkMatch(l, mc); err != nil {
			problem("%s match %s: %v", mc.Game, mc.MatchID, err)
		}
		if !mc.SeedOK {
			problem("%s match %s: the revealed seed does not match its commitment", mc.Game, mc.MatchID)
		}
		if !mc.Clean {
			problem("%s match %s: the replay has %d differences", mc.Game, mc.MatchID, mc.Differences)
		}
		// Tied to the ledger: seed committed before, revealed, configs,
		// counted contributions and the named beacon round.
		if rc, err := verify.CheckResult(l, mc.Result); err != nil {
			problem("%s match %s: %v", mc.Game, mc.MatchID, err)
		} else if !rc.Clean() {
			problem("%s match %s: not tied to the ledger: %s", mc.Game, mc.MatchID, strings.Join(rc.Problems, "; "))
		} else {
			mc.MatchSeed = matchSeedText(rc)
		}
	}

	if s.Operators, err = verify.AbandonedMatches(l, o.Now); err != nil {
		return err
	}

	var g secret.Game
	h, j, err := verify.JudgeActions(l, g, o.Now)
	if err != nil {
		return err
	}
	byIndex := map[int64]secret.Action{}
	for _, a := range j.Actions {
		byIndex[a.Post.Index] = a
	}
	for _, a := range weekActions {
		n := rec.posts[a.key]
		got, ok := byIndex[n]
		ac := ActionCheck{Index: n, Player: a.player, ActionType: a.actionType, Commitment: rec.commits[a.key].String(), Want: a.want, WantReason: a.wantReason}
		if ok {
			ac.State = got.State
			if got.Failure != nil {
				ac.Reason = got.Failure.Reason
			}
		}
		if ac.State == secret.Failed {
			ac.RevealNotes = revealNotes(h, got.Post.Commitment, n)
		}
		if ac.State != a.want || ac.Reason != a.wantReason {
			problem("action %s (entry %d): judged %s %q, the script intends %s %q", a.key, n, ac.State, ac.Reason, a.want, a.wantReason)
		}
		s.Actions = append(s.Actions, ac)
	}

	possessions := map[string][]secret.Card{}
	for p, cards := range weekHands {
		for _, c := range cards {
			card, err := secret.ParseCard(c)
			if err != nil {
				return err
			}
			possessions[p] = append(possessions[p], card)
		}
	}
	s.Lots, err = verify.ConcludeLots(h, verify.LotsOptions{Game: g, Week: week, Now: o.Now,
		Points: weekPoints, Possessions: possessions, Prizes: weekPrizes, Lots: weekLots})
	if err != nil {
		problem("concluding week %s: %v", week, err)
	}

	// The audit checks signatures with the key stored in the database; pin
	// it to the key ledger.Init returned (Summary.VerifierKey), as an
	// auditor pins the published key with --vkey-file.
	if got := l.VerifierKey(); got != s.VerifierKey {
		problem("the database's verifier key %q is not the key the demo published, %q", got, s.VerifierKey)
	}
	if s.Audit, err = l.Audit(ctx, nil); err != nil {
		return err
	}
	if !s.Audit.OK {
		problem("ledger audit: %s", s.Audit.Problem)
	}
	if s.Size, err = l.Size(); err != nil {
		return err
	}
	if s.Checkpoint, err = l.LatestCheckpoint(); err != nil {
		return err
	}
	if s.Checkpoint.Size != s.Size {
		problem("the latest checkpoint covers %d of %d entries", s.Checkpoint.Size, s.Size)
	}
	return nil
}

// checkMatch verifies one game from the ledger alone: the seed-commit,
// seed-reveal and result entries, the stored replay (ledger.Replay checks
// it against its digest), the seed against its commitment
// (commit.CheckSeed) and the re-simulation (verify.CheckReplay).
func checkMatch(l *ledger.Ledger, mc *MatchCheck) error {
	body := func(n int64, want ledger.Kind) (*ledger.Body, error) {
		e, err := l.Entry(n)
		if err != nil {
			return nil, err
		}
		if e.Kind != want {
			return nil, fmt.Errorf("entry %d is %s entry, want %s", n, e.Kind.Article(), want)
		}
		return e.Body()
	}
	sc, err := body(mc.SeedCommit, ledger.KindSeedCommit)
	if err != nil {
		return err
	}
	sr, err := body(mc.SeedReveal, ledger.KindSeedReveal)
	if err != nil {
		return err
	}
	res, err := body(mc.Result, ledger.KindResult)
	if err != nil {
		return err
	}
	c, err := commit.ParseCommitment(sc.Commitment)
	if err != nil {
		return err
	}
	seed, err := commit.ParseSeed(sr.Seed)
	if err != nil {
		return err
	}
	data, err := l.Replay(res.ReplaySHA256)
	if err != nil {
		return err
	}
	rep, err := verify.CheckReplay(data)
	if err != nil {
		return err
	}
	var head struct {
		SeedCommitment string `json:"seed_commitment"`
	}
	if err := jsonUnmarshal(data, &head); err != nil {
		return err
	}
	mc.SeedOK = commit.CheckSeed(seed, c) && head.SeedCommitment == c.String() &&
		sr.SeedCommit != nil && *sr.SeedCommit == mc.SeedCommit && mc.SeedCommit < mc.SeedReveal && rep.SeedCommitmentOK
	mc.Clean = rep.Clean()
	mc.Differences = len(rep.Differences)
	return nil
}

// revealNotes says why each reveal of the commit entry post did not count
// when it does not hash to c: its index and the near misses commit.Verify
// names (docs/commitments.md, "Near misses"). Reveals that match are left
// out: the judge's reason already covers them.
func revealNotes(h secret.History, c commit.Commitment, post int64) []string {
	var notes []string
	for _, r := range h.Reveals {
		if r.Commit != post {
			continue
		}
		res := commit.Verify(c, r.Text)
		if res.Match {
			continue
		}
		note := fmt.Sprintf("reveal entry %d does not hash to the commitment", r.Index)
		if len(res.Hints) > 0 {
			names := make([]string, len(res.Hints))
			for i, hint := range res.Hints {
				names[i] = hint.Name
			}
			note += "; it would with " + strings.Join(names, " or ") + " (only the exact bytes count)"
		}
		notes = append(notes, note)
	}
	return notes
}

// matchSeedText says which contributions and beacon round went into a
// match seed, or "" when none did.
func matchSeedText(rc *verify.ResultCheck) string {
	var parts []string
	for _, c := range rc.Contributions {
		if c.Counts {
			parts = append(parts, fmt.Sprintf("seat %d's client seed %q (entry %d)", c.Seat, c.ClientSeed, c.Entry))
		}
	}
	if b := rc.BeaconNamed; b != nil {
		parts = append(parts, fmt.Sprintf("drand quicknet round %d (published %s, after the commitment, signature verified)", b.Round, b.Published))
	}
	if len(parts) == 0 {
		return ""
	}
	return "match seed from the revealed seed, " + strings.Join(parts, ", ")
}
