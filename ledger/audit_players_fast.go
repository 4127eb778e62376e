package ledger

import (
	"context"
	"strings"
	"unicode/utf8"
)

// The players table's fast path (PlayerReader). The tree pass hands the
// commit entries' players, chunk by chunk in index order, to a goroutine
// that looks up the row of each one's skeleton in the store (a bounded
// cache spares the lookup of a player seen lately) and checks it: the
// row names this entry or an earlier one, and if this one, with this
// player. A row so named by its own entry is claimed; when every row of
// the table is claimed (the census's count) and nothing else was amiss,
// the table is exactly the re-derived one and the audit accepts it
// without holding a map of every player. Otherwise it re-derives the
// table the slow way (every row read into a map, the commit entries read
// again), which names the problem: the fast path can only accept.

// auditSlowPath, if not nil, is told each time the audit leaves a check
// to its slow path ("players", "columns"); tests set it to see that the
// fast paths accept a clean log and decline a tampered one.
var auditSlowPath func(check string)

// slowPath tells auditSlowPath.
func slowPath(check string) {
	if auditSlowPath != nil {
		auditSlowPath(check)
	}
}

// playerCommit is a commit entry's index and player.
type playerCommit struct {
	index  int64
	player string
}

// playersFast is the fast path's result: ok if every lookup checked out
// (false too if the store has no players table), claims the rows claimed
// by their own entry.
type playersFast struct {
	ok     bool
	claims int64
}

// checkPlayersFast checks the commit entries' players from in (chunks in
// index order, until in is closed) against the store's rows, and sends
// the result to out.
func checkPlayersFast(ctx context.Context, pr PlayerReader, in <-chan []playerCommit, out chan<- playersFast) {
	res := playersFast{ok: true}
	// A player's skeleton, and so its row, is always the same: a player
	// whose row checked out for an earlier entry needs no lookup.
	cache := make(map[string]struct{}, playersFastCache)
	var (
		pc    PlayerChunk
		sks   []string // the skeletons to look up
		pos   []int    // where each commit's row is in the lookup, -1 if cached
		rows  []int64  // the idx of each looked-up row
		names [][]byte // the player of each looked-up row
	)
	for commits := range in {
		if !res.ok || ctx.Err() != nil {
			continue // drained until the tree pass closes in
		}
		sks, pos = sks[:0], pos[:0]
		for _, e := range commits {
			if _, ok := cache[e.player]; ok {
				pos = append(pos, -1)
				continue
			}
			sk := Skeleton(e.player)
			if !utf8.ValidString(sk) || strings.IndexByte(sk, 0) >= 0 {
				res.ok = false // not a key the lookup passes through unchanged
				break
			}
			pos = append(pos, len(sks))
			sks = append(sks, sk)
		}
		if !res.ok {
			continue
		}
		if len(sks) > 0 {
			ok, err := pr.PlayerRows(ctx, sks, &pc)
			switch {
			case err != nil:
				res.ok = false // the slow path reads again and reports
				continue
			case !ok:
				res.ok = false // no players table: auditRest sees it in the census
				continue
			}
			if rows, names, ok = parsePlayerChunk(&pc, len(sks), rows[:0], names[:0]); !ok {
				res.ok = false
				continue
			}
		}
		for i, e := range commits {
			if pos[i] < 0 {
				continue // a row checked for an earlier entry of the player
			}
			r := rows[pos[i]]
			switch {
			case r > e.index:
				res.ok = false // the row names a later entry
			case r == e.index && string(names[pos[i]]) != e.player:
				res.ok = false // the row of this entry names another player
			case r == e.index:
				res.claims++
			}
			if !res.ok {
				break
			}
			if len(cache) >= playersFastCache {
				clear(cache)
			}
			cache[e.player] = struct{}{}
		}
	}
	out <- res
}

// playersFastCache bounds checkPlayersFast's cache of players checked.
const playersFastCache = 4096

// parsePlayerChunk splits the aggregates of n looked-up skeletons into
// each row's idx and player, appended to rows and names; ok is false
// unless every skeleton has a row of the right types and every count and
// length adds up.
func parsePlayerChunk(c *PlayerChunk, n int, rows []int64, names [][]byte) ([]int64, [][]byte, bool) {
	if c.Count != int64(n) || c.Found != c.Count || c.Typed != c.Count {
		return rows, names, false
	}
	idx, lengths, players := c.Indexes, c.Lengths, c.Players
	for i := range n {
		last := i == n-1
		var r, k int64
		var ok bool
		if r, idx, ok = cutInt(idx, last); !ok {
			return rows, names, false
		}
		if k, lengths, ok = cutInt(lengths, last); !ok || k < 0 || k > int64(len(players)) {
			return rows, names, false
		}
		rows = append(rows, r)
		names = append(names, players[:k])
		players = players[k:]
	}
	return rows, names, len(players) == 0
}
