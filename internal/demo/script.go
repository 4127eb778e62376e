package demo

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/sealedhq/sealed/commit"
	"github.com/sealedhq/sealed/ledger"
)

// scripted is one entry of the week, at its time after Monday 00:00.
type scripted struct {
	at   time.Duration
	kind ledger.Kind
	key  string
	body func(*recorded) (*ledger.Body, error)
}

// scriptEntries returns the week's commit, edit and reveal entries in time
// order. Each action's reveal text is "<declaration>\nsalt: <salt>" with a
// fresh 128-bit salt (commit.RevealText, commit.NewSalt), as `sealed
// commit` makes it; its commitment is recorded in rec.
func scriptEntries(rec *recorded) []scripted {
	texts := map[string][]byte{}
	var out []scripted
	for _, a := range weekActions {
		a := a
		out = append(out, scripted{at: a.posted, kind: ledger.KindCommit, key: a.key, body: func(rec *recorded) (*ledger.Body, error) {
			salt, err := commit.NewSalt()
			if err != nil {
				return nil, err
			}
			texts[a.key] = commit.RevealText(a.decl, salt)
			c := commit.Sum(texts[a.key])
			rec.commits[a.key] = c
			return &ledger.Body{Kind: ledger.KindCommit, Player: a.player, ActionType: a.actionType, Channel: a.channel, Commitment: c.String()}, nil
		}})
	}
	player := map[string]string{}
	for _, a := range weekActions {
		player[a.key] = a.player
	}
	ref := func(rec *recorded, key string) (*int64, error) {
		n, ok := rec.posts[key]
		if !ok {
			return nil, fmt.Errorf("demo script: %s refers to the post %q before it is recorded", key, key)
		}
		return &n, nil
	}
	for _, e := range weekEdits {
		e := e
		out = append(out, scripted{at: e.at, kind: ledger.KindEdit, key: e.key, body: func(rec *recorded) (*ledger.Body, error) {
			n, err := ref(rec, e.key)
			if err != nil {
				return nil, err
			}
			return &ledger.Body{Kind: ledger.KindEdit, Commit: n, Player: player[e.key]}, nil
		}})
	}
	for _, r := range weekReveals {
		r := r
		out = append(out, scripted{at: r.at, kind: ledger.KindReveal, key: r.key, body: func(rec *recorded) (*ledger.Body, error) {
			n, err := ref(rec, r.key)
			if err != nil {
				return nil, err
			}
			text := string(texts[r.key]) + r.suffix
			return &ledger.Body{Kind: ledger.KindReveal, Commit: n, Player: player[r.key], Text: &text}, nil
		}})
	}
	slices.SortStableFunc(out, func(a, b scripted) int { return cmp.Compare(a.at, b.at) })
	return out
}
