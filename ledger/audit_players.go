package ledger

import (
	"context"
	"fmt"
	"slices"
)

// readPlayers reads every players row, by skeleton.
func (l *Ledger) readPlayers(ctx context.Context) (map[string]StoredPlayer, error) {
	out := map[string]StoredPlayer{}
	err := l.store.EachPlayer(ctx, func(p StoredPlayer) error {
		out[p.Skeleton] = p
		return nil
	})
	return out, err
}

// playersAudit re-derives the players table from the commit leaves, in
// index order: each row must be the first commit entry naming a player
// of its skeleton, with that player's name, and each such entry must
// have its row.
type playersAudit struct {
	on      bool // the store has the table
	rows    map[string]StoredPlayer
	claimed map[string]bool
	first   *AuditProblem // the first finding of feed, in index order
}

// feed is entry for the tree pass, which does not know yet whether the
// store has the table: it keeps the first finding and ignores the rest.
func (a *playersAudit) feed(index int64, kind Kind, leaf []byte) {
	if a == nil || a.first != nil {
		return
	}
	on := a.on
	a.on = true
	a.first = a.entry(&StoredEntry{Index: index, Kind: kind, Leaf: leaf})
	a.on = on
}

func newPlayersAudit(rows map[string]StoredPlayer, on bool) *playersAudit {
	return &playersAudit{on: on, rows: rows, claimed: map[string]bool{}}
}

// rowName names a players row in a finding.
func rowName(r StoredPlayer) string {
	return fmt.Sprintf("the row of skeleton %q (player %q, idx %d)", r.Skeleton, r.Player, r.Index)
}

// checkRows checks that each row's skeleton is its player's.
func (a *playersAudit) checkRows() *AuditProblem {
	if !a.on {
		return nil
	}
	keys := make([]string, 0, len(a.rows))
	for k := range a.rows {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r := a.rows[k]
		if sk := Skeleton(r.Player); sk != r.Skeleton {
			return &AuditProblem{Index: -1, Checkpoint: -1, Table: "players",
				What: fmt.Sprintf("%s: the skeleton of its player is %q, not %q", rowName(r), sk, r.Skeleton)}
		}
	}
	return nil
}

// entry checks the players row of a commit entry (entries come in index
// order).
func (a *playersAudit) entry(e *StoredEntry) *AuditProblem {
	if !a.on {
		return nil
	}
	name, ok := commitPlayer(e.Kind, e.Leaf)
	if !ok {
		return nil
	}
	sk := Skeleton(name)
	fail := func(format string, args ...any) *AuditProblem {
		return &AuditProblem{Index: e.Index, Checkpoint: -1, Table: "players", What: fmt.Sprintf(format, args...)}
	}
	r, ok := a.rows[sk]
	switch {
	case !ok:
		return fail("no row for the skeleton %q of the player %q, whom this commit entry is the first to name", sk, name)
	case r.Index > e.Index:
		return fail("%s names entry %d, but this commit entry names a player of that skeleton (%q) first", rowName(r), r.Index, name)
	case r.Index == e.Index && r.Player != name:
		return fail("%s: this commit entry, the first of that skeleton, names the player %q", rowName(r), name)
	case r.Index == e.Index:
		a.claimed[sk] = true
	}
	return nil
}

// finish reports a row that no commit entry below n claimed: one naming
// an entry that is not the first commit of its skeleton, or outside the
// log (rows for entries a writer appended since the audit began, n up to
// size, are left alone).
func (a *playersAudit) finish(n, size int64) *AuditProblem {
	if !a.on {
		return nil
	}
	keys := make([]string, 0, len(a.rows))
	for k := range a.rows {
		if !a.claimed[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		r := a.rows[k]
		switch {
		case r.Index >= n && r.Index < size:
			continue
		case r.Index < 0 || r.Index >= size:
			return &AuditProblem{Index: -1, Checkpoint: -1, Table: "players",
				What: fmt.Sprintf("%s names an entry outside the log's indexes 0..%d", rowName(r), size-1)}
		}
		return &AuditProblem{Index: -1, Checkpoint: -1, Table: "players",
			What: fmt.Sprintf("%s: entry %d is not the first commit entry naming a player of that skeleton", rowName(r), r.Index)}
	}
	return nil
}

// rederivePlayers reads every players row and re-derives the table from
// the commit entries [0, n), read again row by row in index order (the
// slow path of audit_players_fast.go): what the tree pass feeds a
// playersAudit when the store has no PlayerReader.
func (l *Ledger) rederivePlayers(ctx context.Context, n int64) (*playersAudit, error) {
	rows, err := l.readPlayers(ctx)
	if err != nil {
		return nil, err
	}
	pa := newPlayersAudit(rows, false)
	for a := int64(0); a < n && pa.first == nil; a += auditEntryChunk {
		es, err := l.store.EntryRange(ctx, a, min(a+auditEntryChunk, n))
		if err != nil {
			return nil, err
		}
		for i := range es {
			pa.feed(es[i].Index, es[i].Kind, es[i].Leaf)
		}
	}
	return pa, nil
}
