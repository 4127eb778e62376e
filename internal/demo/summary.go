package demo

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sealedhq/sealed/ledger"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// WriteText writes the summary for people: what was recorded, each
// verdict, the audit, and (when url is not empty) where to look.
func (s *Summary) WriteText(w io.Writer, url string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "demo ledger %s (origin %s)\n", s.Path, s.Origin)
	fmt.Fprintf(&b, "verifier key (in %s; pin it to audit: sealed ledger audit --db %s --vkey-file %s):\n  %s\n", s.VerifierKeyFile, s.Path, s.VerifierKeyFile, s.VerifierKey)
	var kinds []string
	for _, k := range []ledger.Kind{ledger.KindSeedCommit, ledger.KindSeedReveal, ledger.KindResult, ledger.KindContribution, ledger.KindCommit, ledger.KindEdit, ledger.KindReveal} {
		if n := s.Entries[k]; n > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s", n, k))
		}
	}
	fmt.Fprintf(&b, "recorded %d entries: %s\n", s.Size, strings.Join(kinds, ", "))
	if s.Checkpoint != nil {
		fmt.Fprintf(&b, "checkpoint: size %d, root %s\n", s.Checkpoint.Size, hashText(s.Checkpoint))
	}
	b.WriteString("\nmatches (seed committed before play, revealed after; replay re-simulated from the ledger):\n")
	for _, m := range s.Matches {
		verdict := "clean"
		if !m.Clean {
			verdict = fmt.Sprintf("%d differences", m.Differences)
		}
		seed := "seed matches its commitment"
		if !m.SeedOK {
			seed = "SEED DOES NOT MATCH its commitment"
		}
		fmt.Fprintf(&b, "  %-7s %s: entries %d, %d, %d; %d events; %s; %s\n", m.Game, m.MatchID, m.SeedCommit, m.SeedReveal, m.Result, m.Events, seed, verdict)
		if m.Headline != "" {
			fmt.Fprintf(&b, "          %s\n", m.Headline)
		}
		if m.MatchSeed != "" {
			fmt.Fprintf(&b, "          %s\n", m.MatchSeed)
		}
	}
	if len(s.Operators) > 0 {
		b.WriteString("\nseed commitments per operator (a match not revealed by its reveal_by is abandoned):\n")
		for _, o := range s.Operators {
			name := o.Operator
			if name == "" {
				name = "(no operator named)"
			}
			fmt.Fprintf(&b, "  %s: %d committed, %d revealed, %d pending, %d abandoned\n", name, o.Committed, o.Revealed, o.Pending, len(o.Abandoned))
			for _, a := range o.Abandoned {
				fmt.Fprintf(&b, "    abandoned: %s %s (seed-commit entry %d), not revealed by %s\n", a.Game, a.MatchID, a.SeedCommit, a.RevealBy)
			}
		}
	}
	fmt.Fprintf(&b, "\nsecret actions of week %s (judged now under the rule Secret Information):\n", s.Week)
	for _, a := range s.Actions {
		state := string(a.State)
		if a.Reason != "" {
			state += ": " + string(a.Reason)
		}
		for _, n := range a.RevealNotes {
			state += "; " + n
		}
		fmt.Fprintf(&b, "  entry %2d  %-6s %-4s %s\n", a.Index, a.Player, a.ActionType, state)
	}
	if s.Lots != nil && s.Lots.Outcome != nil {
		fmt.Fprintf(&b, "\nlots concluded at %s (%s):\n", s.Lots.At.UTC().Format("2006-01-02 15:04 MST"), s.Lots.Outcome.Pricing)
		for _, h := range s.Lots.Outcome.Hands {
			if h.Place > 0 {
				fmt.Fprintf(&b, "  Hand of %s placed %d (%s), prize %d points\n", h.Player, h.Place, h.Strength, h.Prize)
			}
		}
		for _, lot := range s.Lots.Outcome.Lots {
			if lot.Winner == "" {
				fmt.Fprintf(&b, "  lot %s: no standing bid\n", lot.Lot)
			} else {
				fmt.Fprintf(&b, "  lot %s: %s for %d points\n", lot.Lot, lot.Winner, lot.Price)
			}
		}
		players := make([]string, 0, len(s.Lots.Outcome.Points))
		for p := range s.Lots.Outcome.Points {
			players = append(players, p)
		}
		slices.Sort(players)
		var pts []string
		for _, p := range players {
			pts = append(pts, fmt.Sprintf("%s %d", p, s.Lots.Outcome.Points[p]))
		}
		fmt.Fprintf(&b, "  points after: %s\n", strings.Join(pts, ", "))
	}
	if s.Audit != nil {
		if s.Audit.OK {
			fmt.Fprintf(&b, "\naudit: ok (%d entries, %d checkpoints re-derived and checked)\n", s.Audit.Size, s.Audit.Checkpoints)
		} else {
			fmt.Fprintf(&b, "\naudit: FAILED: %s\n", s.Audit.Problem)
		}
	}
	if s.OK() {
		b.WriteString("verdict: everything verifies\n")
	} else {
		b.WriteString("verdict: PROBLEMS\n")
		for _, p := range s.Problems {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	if url != "" {
		fmt.Fprintf(&b, "\nopen %s\n", url)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// hashText is the checkpoint's root hash in standard base64, as the
// checkpoint note writes it.
func hashText(cp *ledger.Checkpoint) string { return base64.StdEncoding.EncodeToString(cp.Root[:]) }
